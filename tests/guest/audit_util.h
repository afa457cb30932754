/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's audit, for the in-guest tests: messages and rules sent over
 * NETLINK_AUDIT as auditctl sends them, and the records read back from the
 * kernel log (with no auditd, kauditd prints each record there, after
 * "audit: ").
 */
#ifndef STACKER_AUDIT_UTIL_H
#define STACKER_AUDIT_UTIL_H

#include <linux/audit.h>
#include <linux/netlink.h>
#include <sys/socket.h>

/* 7.3's record types for several LSMs' contexts (include/uapi/linux/audit.h). */
#ifndef AUDIT_MAC_TASK_CONTEXTS
#define AUDIT_MAC_TASK_CONTEXTS 1425
#endif
#ifndef AUDIT_MAC_OBJ_CONTEXTS
#define AUDIT_MAC_OBJ_CONTEXTS 1426
#endif

/*
 * Sends one audit netlink request of `type` with `len` bytes of `data` and
 * waits for the kernel's answer (NLM_F_ACK); 0 or the errno.
 */
static inline int audit_request(int type, const void *data, size_t len)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct {
		struct nlmsghdr nlh;
		char data[8192];
	} req = { 0 }, ack;
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT);
	int err = 0;

	if (fd < 0)
		return errno;
	if (len > sizeof(req.data)) {
		close(fd);
		return EINVAL;
	}
	req.nlh.nlmsg_len = NLMSG_LENGTH(len);
	req.nlh.nlmsg_type = type;
	req.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.nlh.nlmsg_seq = 1;
	memcpy(req.data, data, len);
	if (sendto(fd, &req, req.nlh.nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0) {
		err = errno;
	} else {
		ssize_t n = recv(fd, &ack, sizeof(ack), 0);

		if (n < 0)
			err = errno;
		else if (ack.nlh.nlmsg_type == NLMSG_ERROR)
			err = -((struct nlmsgerr *)NLMSG_DATA(&ack.nlh))->error;
	}
	close(fd);
	return err;
}

/* Sends a userspace AVC message with text `msg` (logged even with audit off). */
static inline int audit_user_avc(const char *msg)
{
	return audit_request(AUDIT_USER_AVC, msg, strlen(msg) + 1);
}

/* Turns auditing on (1) or off (0). */
static inline int audit_set_enabled(int enabled)
{
	struct audit_status s = { .mask = AUDIT_STATUS_ENABLED, .enabled = enabled };

	return audit_request(AUDIT_SET, &s, sizeof(s));
}

/*
 * Adds (AUDIT_ADD_RULE) or deletes (AUDIT_DEL_RULE) the rule that audits
 * every system call of process `pid` at exit, as "auditctl -a
 * always,exit -S all -F pid=PID".
 */
static inline int audit_pid_rule(int op, pid_t pid)
{
	struct audit_rule_data r;

	memset(&r, 0, sizeof(r));
	r.flags = AUDIT_FILTER_EXIT;
	r.action = AUDIT_ALWAYS;
	r.field_count = 1;
	memset(r.mask, 0xff, sizeof(r.mask));
	r.fields[0] = AUDIT_PID;
	r.values[0] = pid;
	r.fieldflags[0] = AUDIT_EQUAL;
	return audit_request(op, &r, sizeof(r));
}

/*
 * Adds or deletes the rule "auditctl -a always,exit -S all -F pid=PID -F
 * subj_type=TYPE": an LSM field, whose text the LSMs parse.
 */
static inline int audit_pid_subj_type_rule(int op, pid_t pid, const char *type)
{
	size_t len = strlen(type);
	struct audit_rule_data *r = calloc(1, sizeof(*r) + len);
	int err;

	if (!r)
		return ENOMEM;
	r->flags = AUDIT_FILTER_EXIT;
	r->action = AUDIT_ALWAYS;
	r->field_count = 2;
	memset(r->mask, 0xff, sizeof(r->mask));
	r->fields[0] = AUDIT_PID;
	r->values[0] = pid;
	r->fieldflags[0] = AUDIT_EQUAL;
	r->fields[1] = AUDIT_SUBJ_TYPE;
	r->values[1] = len;
	r->fieldflags[1] = AUDIT_EQUAL;
	r->buflen = len;
	memcpy(r->buf, type, len);
	err = audit_request(op, r, sizeof(*r) + len);
	free(r);
	return err;
}

/*
 * The kernel log record (its text after "audit: ") that contains `needle`
 * and, with `type` non-zero, is of that type; with `serial`, also of that
 * audit serial ("SERIAL)" of "audit(TIME:SERIAL)"). Reads the log `passes`
 * times, 100 ms apart, for kauditd to print it. 0 or -1.
 */
static inline int scan_audit_records(const char *needle, const char *serial, int type,
				     char *out, size_t size, int passes)
{
	for (int tries = 0; tries < passes; tries++) {
		int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
		char rec[8192];
		ssize_t n;

		if (fd < 0)
			return -1;
		while ((n = read(fd, rec, sizeof(rec) - 1)) != 0) {
			char *text, typed[32];

			if (n < 0) {
				if (errno == EPIPE)
					continue;	/* overwritten: read on */
				break;
			}
			rec[n] = '\0';
			text = strchr(rec, ';');
			if (!text || !(text = strstr(text, "audit: ")))
				continue;
			text += strlen("audit: ");
			if (needle && !strstr(text, needle))
				continue;
			snprintf(typed, sizeof(typed), "type=%d ", type);
			if (type && strncmp(text, typed, strlen(typed)))
				continue;
			if (serial && !strstr(text, serial))
				continue;
			snprintf(out, size, "%s", text);
			close(fd);
			return 0;
		}
		close(fd);
		usleep(100000);
	}
	return -1;
}

/* As scan_audit_records(), waiting up to 5 s. */
static inline int find_audit_record(const char *needle, const char *serial, int type,
				    char *out, size_t size)
{
	return scan_audit_records(needle, serial, type, out, size, 50);
}

/*
 * Whether no record with `needle` of `type` has been printed: one pass,
 * for records that would have come before one already found.
 */
static inline int audit_record_absent(const char *needle, int type)
{
	char record[4096];

	return scan_audit_records(needle, NULL, type, record, sizeof(record), 1) != 0;
}

/* The serial of an audit record, as "SERIAL)" of "audit(TIME:SERIAL)". */
static inline int audit_serial(const char *record, char *out, size_t size)
{
	const char *p = strstr(record, "audit("), *colon, *end;

	if (!p || !(colon = strchr(p, ':')) || !(end = strchr(colon, ')')))
		return -1;
	snprintf(out, size, "%.*s", (int)(end - colon + 1), colon);
	return 0;
}

#endif /* STACKER_AUDIT_UTIL_H */
