// SPDX-License-Identifier: GPL-2.0

//! The integrity policy: its text language, parsed in the kernel, and the
//! decision of what to do with a file.
//!
//! One rule per line, in the spirit of IMA's policy
//! (`Documentation/ABI/testing/ima_policy`):
//!
//! ```text
//! # comment
//! ACTION [CONDITION ...]
//!
//! ACTION     measure | dont_measure | appraise | dont_appraise
//! CONDITION  func=BPRM_CHECK | MMAP_CHECK | FILE_CHECK | MODULE_CHECK | FIRMWARE_CHECK
//!            mask=MAY_READ | MAY_EXEC
//!            uid=N          the current task's uid
//!            fowner=N       the file's owner
//!            obj_type=TYPE  the file's type in the mlte submodule
//!            appraise_type=imasig   (appraise only) a signature is required
//! ```
//!
//! For each of the two families (measure, appraise), the first rule of the
//! family whose conditions all hold decides; no rule means no.
//!
//! A policy is parsed whole before it replaces the one in force; the first
//! error is reported as a line and column with a reason.
//!
//! Kernel-independent: the host tests run the same file.

use crate::blob::BlobState;
use core::fmt;

/// The most rules a policy may have.
pub(crate) const MAX_RULES: usize = 64;
/// The longest `obj_type` name, in bytes (as mlte's type names).
pub(crate) const MAX_TYPE: usize = 63;

/// Where in the kernel a file is met: IMA's `func=`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub(crate) enum Func {
    /// A file executed (`bprm_check_security`).
    Bprm = 1,
    /// A file mapped executable (`mmap_file` with `PROT_EXEC`).
    Mmap,
    /// A file opened (`file_post_open`).
    File,
    /// A kernel module read by the kernel (`kernel_post_read_file`).
    Module,
    /// Firmware read by the kernel (`kernel_post_read_file`).
    Firmware,
}

impl Func {
    /// The names, as written in a policy.
    const NAMES: [(&'static str, Func); 5] = [
        ("BPRM_CHECK", Func::Bprm),
        ("MMAP_CHECK", Func::Mmap),
        ("FILE_CHECK", Func::File),
        ("MODULE_CHECK", Func::Module),
        ("FIRMWARE_CHECK", Func::Firmware),
    ];

    /// The name of `self`, as written in a policy.
    pub(crate) fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("?", |(n, _)| n)
    }
}

pub(crate) use crate::access::may::{EXEC as MAY_EXEC, READ as MAY_READ};

/// What a rule does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub(crate) enum Action {
    /// Measure the file (0: an all-zero rule is a valid value).
    Measure = 0,
    /// Do not measure it (stops the measure family).
    DontMeasure,
    /// Appraise it: `security.ima` must match its contents.
    Appraise,
    /// Do not appraise it (stops the appraise family).
    DontAppraise,
}

impl Action {
    const NAMES: [(&'static str, Action); 4] = [
        ("measure", Action::Measure),
        ("dont_measure", Action::DontMeasure),
        ("appraise", Action::Appraise),
        ("dont_appraise", Action::DontAppraise),
    ];

    fn is_measure_family(self) -> bool {
        matches!(self, Action::Measure | Action::DontMeasure)
    }
}

/// A type name from `obj_type=`: where it is in the policy's name pool.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct TypeName {
    start: u16,
    len: u8,
}

/// The room for all `obj_type` names of a policy, in bytes.
const NAMES_POOL: usize = 1024;

/// One rule. All zero is a valid value (`measure`, no condition), so that
/// a policy can be built in place from zeroes (`BlobState`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Rule {
    /// What it does.
    pub(crate) action: Action,
    /// `func=`: a [`Func`]'s value, 0 for any.
    func: u8,
    /// Which of `uid=`, `fowner=` and `obj_type=` are given ([`HAS_UID`],
    /// [`HAS_FOWNER`], [`HAS_TYPE`]).
    given: u8,
    /// `appraise_type=imasig`.
    pub(crate) signature: bool,
    /// `mask=`: all of these bits must be in the access; 0 for any.
    mask: u32,
    /// `uid=`.
    uid: u32,
    /// `fowner=`.
    fowner: u32,
    /// `obj_type=`.
    obj_type: TypeName,
}

const HAS_UID: u8 = 1;
const HAS_FOWNER: u8 = 2;
const HAS_TYPE: u8 = 4;

impl Rule {
    fn func(&self) -> Option<Func> {
        Func::NAMES
            .iter()
            .map(|(_, f)| *f)
            .find(|f| *f as u8 == self.func)
    }

    fn given(&self, what: u8) -> bool {
        self.given & what != 0
    }
}

/// What the kernel is doing with a file, for the rules to match against.
pub(crate) struct Access {
    /// Where.
    pub(crate) func: Func,
    /// `MAY_*` bits of the access.
    pub(crate) mask: u32,
    /// The current task's uid (in the initial namespace).
    pub(crate) uid: u32,
    /// The file's owner (in the initial namespace).
    pub(crate) fowner: u32,
}

/// What to do with a file.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct Decision {
    /// Measure it.
    pub(crate) measure: bool,
    /// Appraise it.
    pub(crate) appraise: bool,
    /// Its `security.ima` must be a signature.
    pub(crate) signature: bool,
}

impl Decision {
    /// Nothing to do.
    pub(crate) fn is_none(&self) -> bool {
        !self.measure && !self.appraise
    }
}

/// A parsed policy. All zero is the empty policy.
#[derive(Clone, Copy)]
pub(crate) struct Policy {
    rules: [Rule; MAX_RULES],
    len: usize,
    names: [u8; NAMES_POOL],
    names_len: usize,
}

// SAFETY: all zero is the empty policy (no rules, no names; an all-zero
// `Rule` is `measure` with no condition); nothing needs dropping.
unsafe impl BlobState for Policy {}

impl Policy {
    /// The text of a type name of this policy.
    pub(crate) fn name(&self, name: TypeName) -> &[u8] {
        let start = usize::from(name.start);
        self.names
            .get(start..start.saturating_add(usize::from(name.len)))
            .unwrap_or(&[])
    }

    /// The rules, in order.
    pub(crate) fn rules(&self) -> &[Rule] {
        self.rules.get(..self.len).unwrap_or(&[])
    }

    /// Whether an `appraise` rule names `func` explicitly: then data
    /// loaded for it from memory, which has nothing to appraise, is
    /// refused.
    pub(crate) fn appraises(&self, func: Func) -> bool {
        self.rules()
            .iter()
            .any(|r| r.action == Action::Appraise && r.func == func as u8)
    }

    /// What to do for `access`; `obj_type_is(name)` says whether the file
    /// has mlte type `name` (asked only for rules that name one), `None`
    /// when its type is not known (mlte could not read its label): then a
    /// `measure` or `appraise` rule matches and a `dont_` rule does not,
    /// so that an unreadable label never exempts a file.
    pub(crate) fn decide(
        &self,
        access: &Access,
        mut obj_type_is: impl FnMut(&[u8]) -> Option<bool>,
    ) -> Decision {
        let mut d = Decision::default();
        let (mut measure_done, mut appraise_done) = (false, false);
        for rule in self.rules() {
            let measure_family = rule.action.is_measure_family();
            if (measure_family && measure_done) || (!measure_family && appraise_done) {
                continue;
            }
            if !self.matches(rule, access, &mut obj_type_is) {
                continue;
            }
            match rule.action {
                Action::Measure => d.measure = true,
                Action::Appraise => {
                    d.appraise = true;
                    d.signature = rule.signature;
                }
                Action::DontMeasure | Action::DontAppraise => {}
            }
            if measure_family {
                measure_done = true;
            } else {
                appraise_done = true;
            }
            if measure_done && appraise_done {
                break;
            }
        }
        d
    }
}

impl Policy {
    /// Writes the rules, one per line, in the language they were parsed
    /// from (canonical spacing, no comments): what reads back parses to the
    /// same policy.
    pub(crate) fn write_text(&self, out: &mut impl fmt::Write) -> fmt::Result {
        for r in self.rules() {
            let action = Action::NAMES
                .iter()
                .find(|(_, a)| *a == r.action)
                .map_or("?", |(n, _)| n);
            out.write_str(action)?;
            if let Some(f) = r.func() {
                write!(out, " func={}", f.name())?;
            }
            match r.mask {
                MAY_READ => out.write_str(" mask=MAY_READ")?,
                MAY_EXEC => out.write_str(" mask=MAY_EXEC")?,
                _ => {}
            }
            if r.given(HAS_UID) {
                write!(out, " uid={}", r.uid)?;
            }
            if r.given(HAS_FOWNER) {
                write!(out, " fowner={}", r.fowner)?;
            }
            if r.given(HAS_TYPE) {
                out.write_str(" obj_type=")?;
                self.name(r.obj_type)
                    .iter()
                    .try_for_each(|&b| out.write_char(char::from(b)))?;
            }
            if r.signature {
                out.write_str(" appraise_type=imasig")?;
            }
            out.write_char('\n')?;
        }
        Ok(())
    }

    fn matches(
        &self,
        r: &Rule,
        a: &Access,
        obj_type_is: &mut impl FnMut(&[u8]) -> Option<bool>,
    ) -> bool {
        (r.func == 0 || r.func == a.func as u8)
            && a.mask & r.mask == r.mask
            && (!r.given(HAS_UID) || r.uid == a.uid)
            && (!r.given(HAS_FOWNER) || r.fowner == a.fowner)
            && (!r.given(HAS_TYPE)
                || obj_type_is(self.name(r.obj_type))
                    .unwrap_or(matches!(r.action, Action::Measure | Action::Appraise)))
    }
}

/// Why a policy was refused, and where: 1-based line and column.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct ParseError {
    /// The line.
    pub(crate) line: u32,
    /// The column, in bytes.
    pub(crate) col: u32,
    /// What was wrong, and what was expected.
    pub(crate) why: &'static str,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.why)
    }
}

/// The column (1-based) of `part`, a subslice of `line`.
fn col_of(line: &[u8], part: &[u8]) -> u32 {
    let off = (part.as_ptr() as usize).wrapping_sub(line.as_ptr() as usize);
    u32::try_from(off.min(line.len()))
        .unwrap_or(u32::MAX)
        .saturating_add(1)
}

/// A decimal `u32`, no sign, no leading `+`.
fn parse_u32(s: &[u8]) -> Option<u32> {
    if s.is_empty() || s.len() > 10 {
        return None;
    }
    let mut v: u64 = 0;
    for &c in s {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + u64::from(c - b'0');
    }
    u32::try_from(v).ok()
}

/// Parses `text` whole into `policy`, which must be empty (all zero):
/// `Ok`, or the first error (and `policy` is to be dropped).
pub(crate) fn parse_into(text: &[u8], policy: &mut Policy) -> Result<(), ParseError> {
    for (n, line) in text.split(|&c| c == b'\n').enumerate() {
        let line_no = u32::try_from(n).unwrap_or(u32::MAX).saturating_add(1);
        let err = |part: &[u8], why| ParseError {
            line: line_no,
            col: col_of(line, part),
            why,
        };
        // A comment runs to the end of the line.
        let body = line.split(|&c| c == b'#').next().unwrap_or(&[]);
        if let Some(bad) = body
            .iter()
            .position(|&c| !(c.is_ascii_graphic() || c == b' ' || c == b'\t'))
        {
            return Err(err(&line[bad..], "control or non-ASCII character"));
        }
        let mut words = body
            .split(|&c| c == b' ' || c == b'\t')
            .filter(|w| !w.is_empty());
        let Some(action) = words.next() else {
            continue;
        };
        let Some(&(_, action)) = Action::NAMES.iter().find(|(n, _)| n.as_bytes() == action) else {
            return Err(err(
                action,
                "unknown action; expected measure, dont_measure, appraise or dont_appraise",
            ));
        };
        let mut rule = Rule {
            action,
            func: 0,
            given: 0,
            signature: false,
            mask: 0,
            uid: 0,
            fowner: 0,
            obj_type: TypeName::default(),
        };
        for word in words {
            let Some(eq) = word.iter().position(|&c| c == b'=') else {
                return Err(err(word, "expected a condition KEY=VALUE"));
            };
            let (key, value) = (&word[..eq], &word[eq + 1..]);
            let at = |why| err(value, why);
            let dup = |set: bool| {
                if set {
                    Err(err(word, "condition given twice"))
                } else {
                    Ok(())
                }
            };
            match key {
                b"func" => {
                    dup(rule.func != 0)?;
                    let f = Func::NAMES.iter().find(|(n, _)| n.as_bytes() == value).ok_or(at(
                        "unknown func; expected BPRM_CHECK, MMAP_CHECK, FILE_CHECK, MODULE_CHECK or FIRMWARE_CHECK",
                    ))?;
                    rule.func = f.1 as u8;
                }
                b"mask" => {
                    dup(rule.mask != 0)?;
                    rule.mask = match value {
                        b"MAY_READ" => MAY_READ,
                        b"MAY_EXEC" => MAY_EXEC,
                        _ => return Err(at("unknown mask; expected MAY_READ or MAY_EXEC")),
                    };
                }
                b"uid" => {
                    dup(rule.given(HAS_UID))?;
                    rule.uid = parse_u32(value).ok_or(at("expected a decimal uid"))?;
                    rule.given |= HAS_UID;
                }
                b"fowner" => {
                    dup(rule.given(HAS_FOWNER))?;
                    rule.fowner = parse_u32(value).ok_or(at("expected a decimal uid"))?;
                    rule.given |= HAS_FOWNER;
                }
                b"obj_type" => {
                    dup(rule.given(HAS_TYPE))?;
                    if value.is_empty()
                        || value.len() > MAX_TYPE
                        || !value.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_')
                    {
                        return Err(at("expected a type name: 1 to 63 letters, digits or _"));
                    }
                    let start = policy.names_len;
                    let end = start + value.len();
                    let slot = policy
                        .names
                        .get_mut(start..end)
                        .ok_or(at("too many obj_type names (1024 bytes in all)"))?;
                    slot.copy_from_slice(value);
                    policy.names_len = end;
                    rule.obj_type = TypeName {
                        start: u16::try_from(start).unwrap_or(u16::MAX),
                        len: u8::try_from(value.len()).unwrap_or(u8::MAX),
                    };
                    rule.given |= HAS_TYPE;
                }
                b"appraise_type" => {
                    dup(rule.signature)?;
                    if action != Action::Appraise {
                        return Err(err(word, "appraise_type is for appraise rules only"));
                    }
                    if value != b"imasig" {
                        return Err(at("unknown appraise_type; expected imasig"));
                    }
                    rule.signature = true;
                }
                _ => {
                    return Err(err(
                        key,
                        "unknown condition; expected func, mask, uid, fowner, obj_type or appraise_type",
                    ))
                }
            }
        }
        let Some(slot) = policy.rules.get_mut(policy.len) else {
            return Err(err(line, "too many rules (at most 64)"));
        };
        *slot = rule;
        policy.len += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &[u8]) -> Result<Box<Policy>, ParseError> {
        // SAFETY: all zero is a valid `Policy` (the empty one).
        let mut p: Box<Policy> = unsafe { Box::new_zeroed().assume_init() };
        parse_into(text, &mut p).map(|()| p)
    }

    fn access(func: Func, mask: u32, uid: u32, fowner: u32) -> Access {
        Access {
            func,
            mask,
            uid,
            fowner,
        }
    }

    #[test]
    fn first_matching_rule_of_each_family_decides() {
        let p = parse(
            b"# a policy\n\
              dont_measure fowner=7\n\
              measure func=FILE_CHECK mask=MAY_READ\n\
              measure func=BPRM_CHECK\n\
              appraise func=BPRM_CHECK fowner=1001 appraise_type=imasig  # signed\n\
              appraise func=BPRM_CHECK\n",
        )
        .unwrap();
        assert_eq!(p.rules().len(), 5);
        let none = |_: &[u8]| Some(false);
        let d = p.decide(&access(Func::File, MAY_READ, 0, 0), none);
        assert_eq!(
            d,
            Decision {
                measure: true,
                appraise: false,
                signature: false
            }
        );
        // The dont_measure rule comes first.
        let d = p.decide(&access(Func::File, MAY_READ, 0, 7), none);
        assert!(d.is_none());
        // A write-only open is not MAY_READ.
        assert!(p.decide(&access(Func::File, 2, 0, 0), none).is_none());
        let d = p.decide(&access(Func::Bprm, MAY_EXEC, 0, 1001), none);
        assert_eq!(
            d,
            Decision {
                measure: true,
                appraise: true,
                signature: true
            }
        );
        let d = p.decide(&access(Func::Bprm, MAY_EXEC, 0, 1000), none);
        assert_eq!(
            d,
            Decision {
                measure: true,
                appraise: true,
                signature: false
            }
        );
    }

    #[test]
    fn appraises_only_with_an_explicit_func() {
        let p = parse(
            b"appraise func=MODULE_CHECK\nappraise fowner=3\ndont_appraise func=FIRMWARE_CHECK\n",
        )
        .unwrap();
        assert!(p.appraises(Func::Module));
        assert!(!p.appraises(Func::Firmware));
        assert!(!p.appraises(Func::Bprm));
    }

    #[test]
    fn obj_type_asks_only_for_rules_that_name_one() {
        let p = parse(b"measure func=FILE_CHECK\nappraise obj_type=bin_t\n").unwrap();
        let mut asked = 0;
        let d = p.decide(&access(Func::File, MAY_READ, 0, 0), |t| {
            asked += 1;
            Some(t == b"bin_t")
        });
        assert_eq!(asked, 1);
        assert!(d.appraise && d.measure);
        let d = p.decide(&access(Func::File, MAY_READ, 0, 0), |t| {
            Some(t == b"other_t")
        });
        assert!(!d.appraise);
    }

    /// A file whose type is not known (mlte could not read its label) is
    /// selected by `measure`/`appraise obj_type=` and never exempted by a
    /// `dont_` rule.
    #[test]
    fn unknown_type_never_exempts() {
        let unknown = |_: &[u8]| None;
        let p = parse(
            b"appraise func=FILE_CHECK obj_type=secret_t
",
        )
        .unwrap();
        assert!(
            p.decide(&access(Func::File, MAY_READ, 0, 0), unknown)
                .appraise
        );
        let p = parse(
            b"dont_appraise obj_type=public_t
dont_measure obj_type=public_t
\
              appraise func=FILE_CHECK
measure func=FILE_CHECK
",
        )
        .unwrap();
        let d = p.decide(&access(Func::File, MAY_READ, 0, 0), unknown);
        assert!(d.appraise && d.measure);
        let d = p.decide(&access(Func::File, MAY_READ, 0, 0), |_| Some(true));
        assert!(!d.appraise && !d.measure);
    }

    #[test]
    fn errors_say_where_and_why() {
        let cases: &[(&[u8], u32, u32, &str)] = &[
            (b"measure func=FOO\n", 1, 14, "unknown func"),
            (b"\n  mesure\n", 2, 3, "unknown action"),
            (b"measure uid=-1\n", 1, 13, "decimal uid"),
            (b"measure uid=4294967296\n", 1, 13, "decimal uid"),
            (b"measure func=FILE_CHECK func=FILE_CHECK\n", 1, 25, "twice"),
            (
                b"measure appraise_type=imasig\n",
                1,
                9,
                "appraise rules only",
            ),
            (b"appraise appraise_type=sig\n", 1, 24, "expected imasig"),
            (b"measure colour=red\n", 1, 9, "unknown condition"),
            (b"measure func\n", 1, 9, "KEY=VALUE"),
            (b"measure obj_type=a-b\n", 1, 18, "type name"),
            (b"measure mask=MAY_WRITE\n", 1, 14, "unknown mask"),
            (b"measure \x01\n", 1, 9, "control"),
            (b"measure \xff\n", 1, 9, "non-ASCII"),
        ];
        for &(text, line, col, why) in cases {
            let e = parse(text)
                .err()
                .unwrap_or_else(|| panic!("{text:?} accepted"));
            assert_eq!((e.line, e.col), (line, col), "{text:?}: {e}");
            assert!(e.why.contains(why), "{text:?}: {e}");
        }
    }

    #[test]
    fn the_text_read_back_parses_to_the_same_rules() {
        let text = b"measure   func=FILE_CHECK mask=MAY_READ uid=3 # c\n\
                     appraise fowner=1 obj_type=bin_t appraise_type=imasig\ndont_appraise mask=MAY_EXEC\n";
        let p = parse(text).unwrap();
        let mut shown = String::new();
        p.write_text(&mut shown).unwrap();
        assert_eq!(
            shown,
            "measure func=FILE_CHECK mask=MAY_READ uid=3\n\
             appraise fowner=1 obj_type=bin_t appraise_type=imasig\ndont_appraise mask=MAY_EXEC\n"
        );
        let again = parse(shown.as_bytes()).unwrap();
        assert_eq!(again.rules(), p.rules());
    }

    #[test]
    fn at_most_64_rules() {
        let mut text = Vec::new();
        for _ in 0..MAX_RULES {
            text.extend_from_slice(b"measure\n");
        }
        assert_eq!(parse(&text).unwrap().rules().len(), MAX_RULES);
        text.extend_from_slice(b"measure\n");
        assert_eq!(parse(&text).err().unwrap().line, 65);
    }

    #[test]
    fn empty_and_comment_only_policies_select_nothing() {
        for text in [&b""[..], b"\n\n", b"# nothing\n   \t\n"] {
            let p = parse(text).unwrap();
            assert!(p.rules().is_empty());
            assert!(p
                .decide(&access(Func::Bprm, MAY_EXEC, 0, 0), |_| Some(true))
                .is_none());
        }
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let alphabet = b"measure dont_ appraise func=FILE_CHECK mask=MAY_READ uid=0 \n#=\t\x00\xff";
        for _ in 0..20_000 {
            let mut text = [0u8; 48];
            for b in &mut text {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *b = alphabet[(x % alphabet.len() as u64) as usize];
            }
            if let Err(e) = parse(&text) {
                assert!(e.line >= 1 && e.col >= 1 && (e.col as usize) <= text.len() + 1);
            }
        }
    }
}
