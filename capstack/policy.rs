// SPDX-License-Identifier: GPL-2.0

//! capstack's policy: the text format, its parser, its canonical form, and
//! what it decides.
//!
//! ```text
//! # comment
//! mode enforcing|permissive
//! deny CAPS SUBJECT      # take CAPS away from SUBJECT
//! only CAPS SUBJECT      # SUBJECT keeps at most CAPS
//!
//! CAPS    := CAP[,CAP...] | all        CAP := CAP_NET_RAW | net_raw | ...
//! SUBJECT := uid N[-M] | gid N[-M] | exec LABEL | all
//! LABEL   := 1 to 31 of [A-Za-z0-9_.-]
//! ```
//!
//! `uid` and `gid` rules match a process whose real or effective id is in
//! the range. `exec` rules match a process that executed a file whose
//! `security.capstack` xattr is LABEL; the xattr is stored with the file, so
//! the identity survives inode eviction and reboot. `all` matches everyone.
//!
//! Parsing needs no allocation: a policy is a fixed-size value, filled in
//! place. Kernel-independent: the host crate runs the same file.

use super::caps;

/// Most rules in one policy.
pub(crate) const MAX_RULES: usize = 64;
/// Longest exec label.
pub(crate) const MAX_LABEL: usize = 31;

/// The longest canonical form of any policy, in bytes: what the policy file
/// accepts in one write, so that whatever reads back can be written back.
///
/// The longest rule lists every capability name but the shortest (a rule
/// with all of them is written `all`) and the longest subject.
pub(crate) const MAX_CANONICAL: usize = {
    let mut names = 0;
    let mut shortest = usize::MAX;
    let mut i = 0;
    while i < caps::NAMES.len() {
        let len = caps::NAMES[i].len();
        names += len + 1; // and a comma, or the space after the list
        if len < shortest {
            shortest = len;
        }
        i += 1;
    }
    let caps_list = names - shortest - 1;
    // " uid 4294967295-4294967295" or " exec " and a label.
    let uid_subject = " uid ".len() + 2 * 10 + 1;
    let exec_subject = " exec ".len() + MAX_LABEL;
    let subject = if uid_subject > exec_subject {
        uid_subject
    } else {
        exec_subject
    };
    let rule = "only ".len() + caps_list + subject + 1;
    "mode permissive\n".len() + MAX_RULES * rule
};

/// What a rule applies to. (`u8` values so that all-zero is valid.)
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub(crate) enum SubjectKind {
    /// Processes whose real or effective uid is in the range.
    Uid = 0,
    /// Processes whose real or effective gid is in the range.
    Gid = 1,
    /// Processes that executed a file with the label.
    Exec = 2,
    /// Every process.
    All = 3,
}

/// One rule.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Rule {
    /// `true` for `only` (keep at most `caps`), `false` for `deny`.
    pub(crate) only: bool,
    /// The capabilities written in the rule.
    pub(crate) caps: u64,
    /// What the rule applies to.
    pub(crate) kind: SubjectKind,
    /// Id range, for `Uid` and `Gid`.
    pub(crate) lo: u32,
    /// End of the id range (inclusive).
    pub(crate) hi: u32,
    label: [u8; MAX_LABEL],
    label_len: u8,
    /// Line number in the policy text, for log messages.
    pub(crate) line: u32,
}

impl Rule {
    const EMPTY: Rule = Rule {
        only: false,
        caps: 0,
        kind: SubjectKind::Uid,
        lo: 0,
        hi: 0,
        label: [0; MAX_LABEL],
        label_len: 0,
        line: 0,
    };

    /// The capabilities this rule takes away.
    pub(crate) fn denied(&self) -> u64 {
        if self.only {
            caps::ALL & !self.caps
        } else {
            self.caps
        }
    }

    /// The exec label, for `Exec` rules.
    pub(crate) fn label(&self) -> &[u8] {
        &self.label[..self.label_len as usize]
    }

    fn matches_ids(&self, ids: &Ids) -> bool {
        let within = |id: u32| self.lo <= id && id <= self.hi;
        match self.kind {
            SubjectKind::Uid => within(ids.uid) || within(ids.euid),
            SubjectKind::Gid => within(ids.gid) || within(ids.egid),
            SubjectKind::All => true,
            SubjectKind::Exec => false,
        }
    }
}

/// The ids of a process that `uid` and `gid` rules look at.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Ids {
    /// Real uid.
    pub(crate) uid: u32,
    /// Effective uid.
    pub(crate) euid: u32,
    /// Real gid.
    pub(crate) gid: u32,
    /// Effective gid.
    pub(crate) egid: u32,
}

/// A whole policy.
///
/// # Invariants
///
/// `rules[..len]` are the rules in the order written; `len <= MAX_RULES`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Policy {
    /// Permissive mode: log what would be denied, deny nothing.
    pub(crate) permissive: bool,
    rules: [Rule; MAX_RULES],
    len: usize,
}

/// Why a policy text is refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum ErrorKind {
    /// The first word is not `mode`, `deny` or `only`.
    UnknownDirective,
    /// `mode` is not followed by `enforcing` or `permissive` alone.
    BadMode,
    /// A capability name is not known.
    UnknownCapability,
    /// The subject is not `uid`, `gid`, `exec` or `all`.
    BadSubject,
    /// An id or range is not a number, or not `low-high` with low <= high.
    BadRange,
    /// An exec label is empty, too long or has other characters.
    BadLabel,
    /// A rule lacks its capabilities or subject, or has extra words.
    WrongWordCount,
    /// More than [`MAX_RULES`] rules.
    TooManyRules,
    /// The text is not UTF-8 or has a NUL byte.
    BadText,
}

impl ErrorKind {
    /// Text for the log line.
    pub(crate) fn reason(self) -> &'static str {
        match self {
            ErrorKind::UnknownDirective => "expected 'mode', 'deny' or 'only'",
            ErrorKind::BadMode => "expected 'mode enforcing' or 'mode permissive'",
            ErrorKind::UnknownCapability => "unknown capability",
            ErrorKind::BadSubject => "expected 'uid', 'gid', 'exec' or 'all'",
            ErrorKind::BadRange => "expected an id or a range low-high",
            ErrorKind::BadLabel => "expected a label of 1 to 31 of [A-Za-z0-9_.-]",
            ErrorKind::WrongWordCount => "expected 'deny|only CAPS uid|gid RANGE|exec LABEL|all'",
            ErrorKind::TooManyRules => "more than 64 rules",
            ErrorKind::BadText => "not text (NUL byte or not UTF-8)",
        }
    }
}

/// A refused policy: what is wrong and where.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct ParseError {
    /// 1-based line number.
    pub(crate) line: u32,
    /// What is wrong.
    pub(crate) kind: ErrorKind,
}

fn parse_u32(word: &[u8]) -> Option<u32> {
    if word.is_empty() || word.len() > 10 || !word.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let v = word.iter().fold(0u64, |v, &d| v * 10 + u64::from(d - b'0'));
    u32::try_from(v).ok()
}

fn parse_range(word: &[u8]) -> Option<(u32, u32)> {
    let (lo, hi) = match word.iter().position(|&b| b == b'-') {
        Some(dash) => (parse_u32(&word[..dash])?, parse_u32(&word[dash + 1..])?),
        None => {
            let v = parse_u32(word)?;
            (v, v)
        }
    };
    (lo <= hi).then_some((lo, hi))
}

fn parse_caps(word: &[u8]) -> Option<u64> {
    if word.eq_ignore_ascii_case(b"all") {
        return Some(caps::ALL);
    }
    let mut set = 0u64;
    for name in word.split(|&b| b == b',') {
        set |= 1 << caps::by_name(name)?;
    }
    Some(set)
}

impl Policy {
    /// The empty policy: enforcing, no rules.
    pub(crate) const EMPTY: Policy = Policy {
        permissive: false,
        rules: [Rule::EMPTY; MAX_RULES],
        len: 0,
    };

    /// The rules, in the order written.
    pub(crate) fn rules(&self) -> &[Rule] {
        &self.rules[..self.len]
    }

    /// Whether some rule is an `exec` rule: only then does the label of an
    /// executed file matter.
    pub(crate) fn has_exec_rules(&self) -> bool {
        self.rules().iter().any(|r| r.kind == SubjectKind::Exec)
    }

    /// Parses `text` into `self`, which must be empty.
    ///
    /// On error `self` is left in an unspecified state: parse into a fresh
    /// policy and install it only when this returns `Ok`.
    pub(crate) fn parse_into(&mut self, text: &[u8]) -> Result<(), ParseError> {
        for (index, raw) in text.split(|&b| b == b'\n').enumerate() {
            let line_no = u32::try_from(index + 1).unwrap_or(u32::MAX);
            let fail = |kind| ParseError {
                line: line_no,
                kind,
            };
            if raw.contains(&0) || core::str::from_utf8(raw).is_err() {
                return Err(fail(ErrorKind::BadText));
            }
            let line = match raw.iter().position(|&b| b == b'#') {
                Some(hash) => &raw[..hash],
                None => raw,
            };
            let mut words = line
                .split(|b| b.is_ascii_whitespace())
                .filter(|w| !w.is_empty());
            let Some(directive) = words.next() else {
                continue;
            };
            let mut rule = Rule {
                line: line_no,
                ..Rule::EMPTY
            };
            match directive {
                b"mode" => {
                    self.permissive = match (words.next(), words.next()) {
                        (Some(b"enforcing"), None) => false,
                        (Some(b"permissive"), None) => true,
                        _ => return Err(fail(ErrorKind::BadMode)),
                    };
                    continue;
                }
                b"deny" => rule.only = false,
                b"only" => rule.only = true,
                _ => return Err(fail(ErrorKind::UnknownDirective)),
            }
            let (Some(caps_word), Some(subject)) = (words.next(), words.next()) else {
                return Err(fail(ErrorKind::WrongWordCount));
            };
            rule.caps = parse_caps(caps_word).ok_or(fail(ErrorKind::UnknownCapability))?;
            match subject {
                b"uid" | b"gid" => {
                    rule.kind = if subject == b"uid" {
                        SubjectKind::Uid
                    } else {
                        SubjectKind::Gid
                    };
                    let word = words.next().ok_or(fail(ErrorKind::WrongWordCount))?;
                    (rule.lo, rule.hi) = parse_range(word).ok_or(fail(ErrorKind::BadRange))?;
                }
                b"exec" => {
                    rule.kind = SubjectKind::Exec;
                    let word = words.next().ok_or(fail(ErrorKind::WrongWordCount))?;
                    let ok = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-');
                    if word.len() > MAX_LABEL || !word.iter().all(ok) {
                        return Err(fail(ErrorKind::BadLabel));
                    }
                    rule.label[..word.len()].copy_from_slice(word);
                    rule.label_len = word.len() as u8;
                }
                b"all" => rule.kind = SubjectKind::All,
                _ => return Err(fail(ErrorKind::BadSubject)),
            }
            if words.next().is_some() {
                return Err(fail(ErrorKind::WrongWordCount));
            }
            if self.len == MAX_RULES {
                return Err(fail(ErrorKind::TooManyRules));
            }
            // INVARIANT: `len < MAX_RULES` was checked just above.
            self.rules[self.len] = rule;
            self.len += 1;
        }
        Ok(())
    }

    /// Writes the canonical form: what a read of the policy file shows, and
    /// itself a valid policy that parses to the same rules.
    pub(crate) fn write_canonical(&self, out: &mut impl core::fmt::Write) -> core::fmt::Result {
        writeln!(
            out,
            "mode {}",
            if self.permissive {
                "permissive"
            } else {
                "enforcing"
            }
        )?;
        for r in self.rules() {
            write!(out, "{} ", if r.only { "only" } else { "deny" })?;
            if r.caps == caps::ALL {
                write!(out, "all")?;
            } else {
                let mut first = true;
                for cap in 0..caps::NAMES.len() as u32 {
                    if r.caps & (1 << cap) != 0 {
                        write!(out, "{}{}", if first { "" } else { "," }, caps::name(cap))?;
                        first = false;
                    }
                }
                if first {
                    // `only` with no capability listed cannot be written;
                    // the parser never makes one.
                    write!(out, "all")?;
                }
            }
            match r.kind {
                SubjectKind::Uid | SubjectKind::Gid => {
                    let what = if r.kind == SubjectKind::Uid {
                        "uid"
                    } else {
                        "gid"
                    };
                    if r.lo == r.hi {
                        writeln!(out, " {what} {}", r.lo)?;
                    } else {
                        writeln!(out, " {what} {}-{}", r.lo, r.hi)?;
                    }
                }
                SubjectKind::Exec => {
                    let label = core::str::from_utf8(r.label()).unwrap_or("?");
                    writeln!(out, " exec {label}")?;
                }
                SubjectKind::All => writeln!(out, " all")?,
            }
        }
        Ok(())
    }

    /// What `uid`, `gid` and `all` rules take away from a process with
    /// `ids`, and the line of the first rule that takes away `cap` (0 if
    /// none does).
    pub(crate) fn id_denied(&self, ids: &Ids, cap: u32) -> (u64, u32) {
        let mut mask = 0;
        let mut line = 0;
        for r in self.rules() {
            if r.matches_ids(ids) {
                let d = r.denied();
                if line == 0 && d & (1u64 << (cap & 63)) != 0 {
                    line = r.line;
                }
                mask |= d;
            }
        }
        (mask, line)
    }

    /// What `uid`, `gid` and `all` rules take away from a process with
    /// `ids`, and the line of the first rule that takes anything (0 if none).
    pub(crate) fn id_restriction(&self, ids: &Ids) -> (u64, u32) {
        self.rules()
            .iter()
            .filter(|r| r.matches_ids(ids) && r.denied() != 0)
            .fold((0, 0), |(mask, line), r| {
                (mask | r.denied(), if line == 0 { r.line } else { line })
            })
    }

    /// What executing a file with `label` (or without one) takes away, and
    /// the line of the last rule that took something away (0 if none).
    pub(crate) fn exec_denied(&self, label: Option<&[u8]>) -> (u64, u32) {
        let mut mask = 0;
        let mut line = 0;
        for r in self.rules() {
            if r.kind == SubjectKind::Exec && Some(r.label()) == label {
                mask |= r.denied();
                line = r.line;
            }
        }
        (mask, line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Policy, ParseError> {
        let mut p = Policy::EMPTY;
        p.parse_into(text.as_bytes()).map(|()| p)
    }

    fn canonical(p: &Policy) -> String {
        let mut s = String::new();
        p.write_canonical(&mut s).unwrap();
        s
    }

    const IDS_1000: Ids = Ids {
        uid: 1000,
        euid: 1000,
        gid: 1000,
        egid: 1000,
    };

    #[test]
    fn parses_the_documented_examples() {
        let p = parse(
            "# examples\n\
             mode enforcing\n\
             deny CAP_NET_RAW uid 1000-60000   # ordinary users\n\
             only net_bind_service exec websvc\n\
             deny CAP_SYS_MODULE all\n",
        )
        .unwrap();
        assert_eq!(p.rules().len(), 3);
        assert_eq!(
            canonical(&p),
            "mode enforcing\n\
             deny CAP_NET_RAW uid 1000-60000\n\
             only CAP_NET_BIND_SERVICE exec websvc\n\
             deny CAP_SYS_MODULE all\n"
        );
        assert_eq!(p.id_denied(&IDS_1000, 13), (1 << 13 | 1 << 16, 3));
        let root = Ids {
            uid: 0,
            euid: 0,
            gid: 0,
            egid: 0,
        };
        assert_eq!(p.id_denied(&root, 13), (1 << 16, 0));
        assert_eq!(p.id_restriction(&IDS_1000), (1 << 13 | 1 << 16, 3));
        assert_eq!(p.id_restriction(&root), (1 << 16, 5));
        let (mask, line) = p.exec_denied(Some(b"websvc"));
        assert_eq!(mask, caps::ALL & !(1 << 10));
        assert_eq!(line, 4);
        assert_eq!(p.exec_denied(Some(b"other")), (0, 0));
        assert_eq!(p.exec_denied(None), (0, 0));
    }

    #[test]
    fn effective_ids_match_too() {
        let p = parse("deny CAP_NET_RAW uid 0").unwrap();
        // A setuid-root program run by uid 1000.
        let suid = Ids {
            uid: 1000,
            euid: 0,
            gid: 1000,
            egid: 1000,
        };
        assert_eq!(p.id_denied(&suid, 13).0, 1 << 13);
        let p = parse("deny all gid 5-6").unwrap();
        let g = Ids {
            egid: 6,
            ..IDS_1000
        };
        assert_eq!(p.id_denied(&g, 0).0, caps::ALL);
    }

    #[test]
    fn errors_name_the_line_and_the_problem() {
        let cases: &[(&str, u32, ErrorKind)] = &[
            ("mode strict", 1, ErrorKind::BadMode),
            ("mode", 1, ErrorKind::BadMode),
            ("\n\nallow CAP_CHOWN all", 3, ErrorKind::UnknownDirective),
            ("deny CAP_NOPE all", 1, ErrorKind::UnknownCapability),
            (
                "deny CAP_CHOWN,,CAP_KILL all",
                1,
                ErrorKind::UnknownCapability,
            ),
            ("deny CAP_CHOWN user 5", 1, ErrorKind::BadSubject),
            ("deny CAP_CHOWN uid 9-5", 1, ErrorKind::BadRange),
            ("deny CAP_CHOWN uid x", 1, ErrorKind::BadRange),
            ("deny CAP_CHOWN uid 4294967296", 1, ErrorKind::BadRange),
            ("deny CAP_CHOWN uid -5", 1, ErrorKind::BadRange),
            ("deny CAP_CHOWN exec a/b", 1, ErrorKind::BadLabel),
            (
                "deny CAP_CHOWN exec aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                1,
                ErrorKind::BadLabel,
            ),
            ("deny CAP_CHOWN", 1, ErrorKind::WrongWordCount),
            ("deny CAP_CHOWN uid", 1, ErrorKind::WrongWordCount),
            ("deny CAP_CHOWN all extra", 1, ErrorKind::WrongWordCount),
            ("deny all all\n\0", 2, ErrorKind::BadText),
        ];
        for &(text, line, kind) in cases {
            assert_eq!(parse(text), Err(ParseError { line, kind }), "{text:?}");
        }
        let many: String = (0..=MAX_RULES)
            .map(|i| format!("deny CAP_CHOWN uid {i}\n"))
            .collect();
        assert_eq!(
            parse(&many),
            Err(ParseError {
                line: MAX_RULES as u32 + 1,
                kind: ErrorKind::TooManyRules
            })
        );
        let mut p = Policy::EMPTY;
        assert_eq!(
            p.parse_into(b"deny all all\n\xff"),
            Err(ParseError {
                line: 2,
                kind: ErrorKind::BadText
            })
        );
    }

    #[test]
    fn canonical_form_parses_back_to_the_same_policy() {
        let texts = [
            "",
            "mode permissive\ndeny all uid 7\n",
            "only CAP_KILL,CAP_CHOWN gid 10-20\ndeny cap_bpf exec a.b-c_d\n",
        ];
        for text in texts {
            let p = parse(text).unwrap();
            let again = parse(&canonical(&p)).unwrap();
            assert_eq!(canonical(&again), canonical(&p));
            assert_eq!(again.rules().len(), p.rules().len());
        }
    }
}
