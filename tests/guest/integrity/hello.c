// SPDX-License-Identifier: GPL-2.0
/*
 * The program the integrity fixtures execute (scripts/integrity-fixtures.py
 * copies it to /hashed/ok, /signed/good, ...): prints one line and exits 0.
 * No libc, so that it is a few hundred bytes and the same bytes on every
 * build: built with gcc -static -Os -nostdlib.
 */

/* A Linux x86-64 system call with up to three arguments. */
static long sys3(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}

void _start(void)
{
	static const char msg[] = "integrity fixture: ran\n";

	sys3(1 /* write */, 1, (long)msg, sizeof(msg) - 1);
	for (;;)
		sys3(60 /* exit */, 0, 0, 0);
}
