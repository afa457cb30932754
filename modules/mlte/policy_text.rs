// SPDX-License-Identifier: GPL-2.0

//! The text policy language of `mlte`, read on the host by the policy tool
//! (`mlte-policy check FILE`): the kernel will load a compiled form.
//!
//! The syntax follows SELinux's kernel policy language, so that SELinux
//! users can read it at sight. Statements end with `;`; `#` starts a
//! comment:
//!
//! ```text
//! sensitivity s0;                 # declares s0 (s0 to s255)
//! category c0;                    # declares c0 (c0 to c1023)
//! type user_t;                    # declares a type
//! allow user_t etc_t : file { read open getattr };
//! allow user_t self : process signal;
//! allow init_t { bin_t etc_t } : file *;   # sets of types; * is every permission
//! type_transition user_t tmp_t : file user_tmp_t;
//! type_transition init_t bin_t : process user_t;
//! type_transition user_t tmp_t : file user_log_t "log";   # for that name only
//! range_transition init_t bin_t s0 - s1:c0.c3;  # exec of bin_t: that range
//! range_transition user_t tmp_t : { file dir } s1;  # new files and dirs
//! type_change user_t tty_t : file user_tty_t;   # mlte/relabel's answer
//! type_member user_t tmp_t : dir user_tmp_t;    # mlte/member's answer
//! level s1:c0.c3;                 # s1 with any of c0 to c3
//! role system_r types { init_t user_t };   # the types a role may have
//! user system_u roles system_r level s0 range s0 - s1:c0.c3;
//! role_transition system_r bin_t user_r;   # exec of bin_t: role user_r
//! allow system_r user_r;          # a process may change role so
//! sid kernel system_u:system_r:init_t:s0;      # tasks from before the policy
//! sid file system_u:object_r:file_t:s0;        # files without a label
//! sid unlabeled system_u:object_r:unlabeled_t:s0; # labels it cannot read
//! mlsconstrain file { read } l1 dom l2;           # no read up
//! mlsconstrain file { write append } l1 domby l2; # no write down
//! constrain process transition u1 == u2 or t1 == init_t;
//! auditallow user_t etc_t : file write;        # log these grants
//! permissive user_t;                           # log, do not enforce
//! validatetrans file (t1 == t2 or t3 == init_t); # who may relabel what
//! bool user_reads_etc true;
//! if (user_reads_etc && !other_bool) { allow user_t etc_t : file read; }
//! else { dontaudit user_t etc_t : file read; }
//! ```
//!
//! A context is SELinux's `USER:ROLE:TYPE:LOW[ - HIGH]`, written without
//! spaces but around the `-`; it must be valid as SELinux's
//! `policydb_context_isvalid()` says (`Policy::validate`). `object_r`
//! is always a role, and needs no `types`. Users and roles get their ids
//! in name order.
//!
//! An `mlsconstrain` expression is made of level relations `dom`, `domby`,
//! `eq` (`==`), `!=` and `incomp` between `l1 l2`, `l1 h2`, `h1 l2`, `h1
//! h2`, `l1 h1` and `l2 h2` (`l` the low level, `h` the high one, `1` the
//! subject's, `2` the object's; `l2 dom l1` is `l1 domby l2`), the
//! comparisons `u1 == u2`, `r1 != r2`, `t1 == t2`, and name tests `t1 ==
//! TYPE`, `t2 != { A B }`, `u1 == USER`, `r2 == { ROLE ... }`, joined with
//! `not`, `and` and `or` (in that order of precedence) and parentheses.
//! `constrain` takes the same without levels. Role dominance (`r1 dom
//! r2`) is not supported. Sensitivities dominate in numeric order.
//!
//! Attributes name sets of types, as in SELinux: `attribute domain;`,
//! then `type user_t, domain;` or `typeattribute user_t domain;`, anywhere
//! in the text (rules are expanded once all of it is read, as checkpolicy
//! does). `type bin_t alias { exe_t sbin_t };` and `typealias bin_t alias
//! usr_bin_t;` give a type more names. A set of types (`{ domain bin_t
//! -init_t }`) takes types, aliases and attributes, and `-NAME` takes
//! types out. In a constraint, `t1 == ATTR` tests the attribute's types (at
//! most `MAX_CONSTRAINT_ATTRIBUTE`).
//!
//! Classes and their permissions are built in ([`CLASSES`]). `self` as a
//! target means the source type (not in a `range_transition`, as
//! checkpolicy).
//!
//! New objects' contexts follow SELinux's `security_compute_sid()`
//! (`Compiled::new_context`). A `range_transition`'s class is `process`
//! unless named, its levels are allowed ones, the high dominating the low.
//! A name-based `type_transition`'s name is 1 to 255 bytes (a file name's
//! most; checkpolicy takes longer ones, mlte refuses them as not
//! supported), none a `/`, and wins over the plain rule for a new file of
//! that name. As checkpolicy, a second rule for one (source, target,
//! class) that gives another type (range) is refused, and so is any
//! second name-based rule for one (source, target, class, name).
//!
//! The text may also be a `policy.conf` as checkpolicy reads it: SELinux's
//! class, common and SID declarations (which end without `;`),
//! `dominance`, `policycap`, class sets, and constraints before the types
//! they name (their names are resolved at the end). `neverallow` is checked on the expanded rules.
//! Rules on classes the policy declares but mlte does
//! not mediate, and permissions it does not mediate, are left out; what
//! mlte cannot enforce is refused as `not supported by mlte`. Every error carries `line:col` (1-based)
//! and says what was expected.
//!
//! Host only: it allocates freely.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::booleans::{
    COND_AND, COND_BOOL, COND_EQ, COND_NEQ, COND_NOT, COND_OR, COND_WORDS, COND_XOR, MAX_BOOLS,
    MAX_CONDS,
};
use super::category::CategorySet;
use super::classes::Class;
pub(crate) use super::classes::CLASSES;
use super::compiled::{InitialSid, OBJECT_R, SIDS};
use super::compiled::{COND_KIND_ALLOW, COND_KIND_AUDITALLOW, COND_KIND_DONTAUDIT};
use super::compiled::{MAX_FS_NAME, MAX_GENFS_PATH};
use super::constraint::{
    ATTR_ROLE, ATTR_TYPE, ATTR_USER, DOM, DOMBY, EQ, INCOMP, NEQ, OP_AND, OP_LEVEL, OP_NAME,
    OP_NOT, OP_OR, OP_SAME, THIRD,
};
use super::context::{Context, ContextError};
use super::fs_labelling::{policycap, FsUse, GENFS_TYPES};
use super::level::Level;

/// The policy capabilities that change how mlte labels, by name.
const POLICYCAP_NAMES: [(&str, u32); 6] = [
    (
        "genfs_seclabel_symlinks",
        policycap::GENFS_SECLABEL_SYMLINKS,
    ),
    ("cgroup_seclabel", policycap::CGROUP_SECLABEL),
    ("functionfs_seclabel", policycap::FUNCTIONFS_SECLABEL),
    ("extended_socket_class", policycap::EXTENDED_SOCKET_CLASS),
    ("nnp_nosuid_transition", policycap::NNP_NOSUID_TRANSITION),
    ("ioctl_skip_cloexec", policycap::IOCTL_SKIP_CLOEXEC),
];

/// A position in the policy text.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Pos {
    /// Line, from 1.
    pub(crate) line: u32,
    /// Column, from 1, in bytes.
    pub(crate) col: u32,
}

/// An error in a policy: where, and what was expected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Error {
    /// Where.
    pub(crate) pos: Pos,
    /// What was wrong, and what was expected.
    pub(crate) message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.pos.line, self.pos.col, self.message)
    }
}

/// A parsed policy.
#[derive(Default, Debug)]
pub(crate) struct Policy {
    /// Type names, by type id.
    pub(crate) types: Vec<String>,
    /// Declared sensitivities.
    pub(crate) sensitivities: Vec<u16>,
    /// Declared categories.
    pub(crate) categories: Vec<u16>,
    /// Allowed permissions: (source, target, class) to a bitmap of
    /// [`CLASSES`]' permissions.
    pub(crate) allow: BTreeMap<(u32, u32, u8), u32>,
    /// `dontaudit` rules: (source, target, class) to the permissions whose
    /// denial is not logged.
    pub(crate) dontaudit: BTreeMap<(u32, u32, u8), u32>,
    /// `auditallow` rules: (source, target, class) to the permissions whose
    /// grant is logged.
    pub(crate) auditallow: BTreeMap<(u32, u32, u8), u32>,
    /// `permissive` domains: their denials are logged, not enforced.
    pub(crate) permissive: BTreeSet<u32>,
    /// Type transitions: (source, target, class) to the new type.
    pub(crate) transitions: BTreeMap<(u32, u32, u8), u32>,
    /// `level` statements, by sensitivity.
    pub(crate) levels: BTreeMap<u16, CategorySet>,
    /// `sid` statements, in the order of [`SIDS`].
    pub(crate) sids: [Option<Context>; SIDS.len()],
    /// Role names, sorted: a role's id is its place. `object_r` is one.
    pub(crate) roles: Vec<String>,
    /// Users, sorted by name (a user's id is its place), with their
    /// ranges (low, high).
    pub(crate) users: Vec<(String, Level, Level)>,
    /// (role, type): the types each role may have.
    pub(crate) role_types: BTreeSet<(u32, u32)>,
    /// (user, role): the roles each user may have.
    pub(crate) user_roles: BTreeSet<(u32, u32)>,
    /// `role_transition`s: (role, type, class) to the new role.
    pub(crate) role_transitions: BTreeMap<(u32, u32, u8), u32>,
    /// `allow ROLE ROLE`: (role, new role).
    pub(crate) role_allows: BTreeSet<(u32, u32)>,
    /// `mlsconstrain` statements: class, permissions and the compiled
    /// expression (`constraint.rs`), in the order written.
    pub(crate) constraints: Vec<(u8, u32, Vec<u32>)>,
    /// `validatetrans` and `mlsvalidatetrans` statements: class and the
    /// compiled expression, in the order written.
    pub(crate) validatetrans: Vec<(u8, Vec<u32>)>,
    /// Booleans, sorted by name (a boolean's id is its place), with their
    /// default values.
    pub(crate) bools: Vec<(String, bool)>,
    /// The conditions of `if` statements, in order (`booleans.rs`).
    pub(crate) conds: Vec<Vec<u32>>,
    /// Conditional rules: (source, target, class, condition, kind |
    /// branch << 8) to permissions.
    pub(crate) cond_rules: BTreeMap<(u32, u32, u8, u32, u32), u32>,
    /// Rules that name a class mlte does not mediate (of a policy that
    /// declares SELinux's classes): that part of them is left out.
    pub(crate) left_out: usize,
    /// `type_change`s: (source, target, class) to the new type.
    pub(crate) type_changes: BTreeMap<(u32, u32, u8), u32>,
    /// `type_member`s: (source, target, class) to the new type.
    pub(crate) type_members: BTreeMap<(u32, u32, u8), u32>,
    /// `range_transition`s: (source, target, class) to the new range
    /// (low, high).
    pub(crate) range_transitions: BTreeMap<(u32, u32, u8), (Level, Level)>,
    /// Name-based `type_transition`s: (source, target, class, the new
    /// object's name) to the new type.
    pub(crate) name_transitions: BTreeMap<(u32, u32, u8, Vec<u8>), u32>,
    /// `fs_use_xattr`, `fs_use_task` and `fs_use_trans`: a file system
    /// type's name to how its inodes are labelled and its context.
    pub(crate) fs_uses: BTreeMap<Vec<u8>, (FsUse, Context)>,
    /// `genfscon` rules, in the compiled form's order: by file system
    /// name, then longer paths first (as the kernel's `genfs_read()`
    /// keeps them), then by path and file type. Each: the file system's name, the
    /// path, the file type (`S_IFMT` bits, 0 for any) and the context.
    pub(crate) genfs: Vec<(Vec<u8>, Vec<u8>, u32, Context)>,
    /// The policy capabilities that change how mlte labels
    /// (`fs_labelling::policycap`).
    pub(crate) policycaps: u32,
}

/// One token and where it starts.
#[derive(Clone, Debug)]
struct Token<'a> {
    text: &'a str,
    pos: Pos,
}

/// Splits `text` into words, names in quotes (`"NAME"`, the quotes
/// kept) and the punctuation `{ } ; : ( ) * , - == !=`, skipping comments
/// and white space. Words are made of letters,
/// digits, `_`, `.` and `/` (a path, in statements mlte refuses); a level or a context is tokens written without
/// space between them (`Parser::glued`).
fn tokens(text: &str) -> Result<Vec<Token<'_>>, Error> {
    let mut out = Vec::new();
    for (n, code) in text.lines().enumerate() {
        let line_no = u32::try_from(n + 1).unwrap_or(u32::MAX);
        let bytes = code.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            let pos = Pos {
                line: line_no,
                col: u32::try_from(i + 1).unwrap_or(u32::MAX),
            };
            if c == b'#' {
                break;
            } else if c == b'"' {
                // A name in quotes (a name-based type_transition's), `#`
                // and spaces included, as checkpolicy reads it.
                let Some(len) = bytes[i + 1..].iter().position(|&b| b == b'"') else {
                    return Err(Error {
                        pos,
                        message: "a name in quotes without its closing '\"'".into(),
                    });
                };
                out.push(Token {
                    text: &code[i..i + len + 2],
                    pos,
                });
                i += len + 2;
            } else if c.is_ascii_whitespace() {
                i += 1;
            } else if b"{};:()*,-".contains(&c) {
                out.push(Token {
                    text: &code[i..i + 1],
                    pos,
                });
                i += 1;
            } else if (c == b'=' || c == b'!') && bytes.get(i + 1) == Some(&b'=')
                || (c == b'&' || c == b'|') && bytes.get(i + 1) == Some(&c)
            {
                out.push(Token {
                    text: &code[i..i + 2],
                    pos,
                });
                i += 2;
            } else if c == b'!' || c == b'^' {
                // A condition's `!` and `^`.
                out.push(Token {
                    text: &code[i..i + 1],
                    pos,
                });
                i += 1;
            } else if is_word_byte(c) {
                let start = i;
                // As checkpolicy's identifiers: a `-` after the first byte
                // is part of the word (`a_t-b_t` is one name; `-b_t`
                // takes b_t out of a set).
                while i < bytes.len() && (is_word_byte(bytes[i]) || bytes[i] == b'-') {
                    i += 1;
                }
                out.push(Token {
                    text: &code[start..i],
                    pos,
                });
            } else {
                return Err(Error {
                    pos,
                    message: format!("unexpected character '{}'", char::from(c)),
                });
            }
        }
    }
    Ok(out)
}

/// Whether `c` may be part of a word.
fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'/'
}

/// Whether a token is punctuation, not a word.
fn is_punct(text: &str) -> bool {
    matches!(
        text,
        "{" | "}" | ";" | ":" | "(" | ")" | "*" | "," | "-" | "==" | "!=" | "&&" | "||" | "!" | "^"
    )
}

/// A cursor over the tokens.
struct Parser<'a> {
    tokens: Vec<Token<'a>>,
    next: usize,
    end: Pos,
    policy: Policy,
    /// Type names and aliases, to type ids.
    type_ids: BTreeMap<String, u32>,
    /// Attribute names, to their index in `attributes`.
    attribute_ids: BTreeMap<String, usize>,
    /// Each attribute's types.
    attributes: Vec<BTreeSet<u32>>,
    /// `allow` and `type_transition` rules as written: attributes are
    /// expanded when the whole policy is read, as checkpolicy does, since
    /// a `typeattribute` may come after a rule that names the attribute.
    rules: Vec<Rule>,
    /// `mlsconstrain` statements as written (their names not yet
    /// resolved) and where their expressions start.
    constraints: Vec<(u8, u32, Vec<u32>, Pos)>,
    /// The names of the constraints (types and attributes, roles or users:
    /// `ATTR_*`), and where each is.
    constraint_names: Vec<(String, Pos, u32)>,
    /// Classes the policy declares (SELinux's `class NAME` and `class NAME
    /// [inherits COMMON] { PERMS }`), with their permissions; empty for a
    /// policy that declares none (mlte's own form).
    declared: BTreeMap<String, BTreeSet<String>>,
    /// `common NAME { PERMS }`.
    commons: BTreeMap<String, BTreeSet<String>>,
    /// `sid NAME` declarations.
    sid_names: BTreeSet<String>,
    /// The same, in the order declared.
    sid_order: Vec<String>,
    /// Roles (`object_r` is always one), with the type sets their `role R
    /// types T` statements give.
    roles: BTreeMap<String, Vec<TypeSet>>,
    /// Users, with their roles and ranges.
    users: BTreeMap<String, UserDecl>,
    /// `role_transition`s as written.
    role_transitions: Vec<RoleTransition>,
    /// `allow ROLES ROLES` as written.
    role_allows: Vec<(Vec<String>, Vec<String>)>,
    /// The `sid` statements' contexts, resolved once every user and role
    /// is declared.
    sid_contexts: [Option<TextContext>; SIDS.len()],
    /// Whether the constraint being parsed is a `constrain`, which may not
    /// test levels.
    without_levels: bool,
    /// Set while a `validatetrans` is read: `u3`, `r3` and `t3` may be
    /// tested.
    with_third: bool,
    /// `validatetrans` statements as written: class, program, where.
    validatetrans: Vec<(u8, Vec<u32>, Pos)>,
    /// Declared booleans, with their default values.
    bools: BTreeMap<String, bool>,
    /// The conditions as written: codes, with the booleans by name.
    conds: Vec<(Vec<CondWord>, Pos)>,
    /// Inside an `if`: its condition and whether in the `else` branch.
    cond: Option<(u32, bool)>,
    /// How deeply the constraint expression being parsed nests (`not`,
    /// `(`): bounded, so that a hostile text cannot overflow the stack.
    depth: u32,
    /// `fs_use_*` statements as written: file system, behaviour, context.
    fs_uses: Vec<(String, FsUse, TextContext)>,
    /// `genfscon` statements as written: file system, path, file type,
    /// context.
    genfs: Vec<(String, Vec<u8>, u32, TextContext)>,
}

/// A class named in a rule: one of mlte's, or one the policy declares
/// that mlte does not mediate (its rules are left out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClassRef {
    /// An index in [`CLASSES`].
    Mlte(u8),
    /// Declared by the policy, not mediated by mlte.
    Other,
}

/// The permissions a rule names: `*`, or names and where each is.
enum PermNames<'a> {
    All,
    Names(Vec<Token<'a>>),
}

/// One element of a set of types as written: `{ a b -c }`.
#[derive(Clone, Copy, Debug)]
enum Member {
    /// A type (or an alias of one).
    Type(u32),
    /// Every type of an attribute.
    Attribute(usize),
    /// The source type (a target only).
    SelfType,
}

/// A set of types as written: its members, and those taken out (`-a`).
#[derive(Clone, Debug, Default)]
struct TypeSet {
    members: Vec<Member>,
    excluded: Vec<Member>,
}

/// A `user` statement.
#[derive(Clone, Debug)]
struct UserDecl {
    roles: Vec<String>,
    low: Level,
    high: Level,
}

/// A `role_transition` as written.
#[derive(Clone, Debug)]
struct RoleTransition {
    roles: Vec<String>,
    types: TypeSet,
    class: u8,
    new: String,
    pos: Pos,
}

/// A context as written: its user and role by name (their ids are known
/// once the policy is read), its type and levels.
#[derive(Clone, Debug)]
struct TextContext {
    user: String,
    role: String,
    ty: u32,
    low: Level,
    high: Level,
    pos: Pos,
}

/// What an access vector rule does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AvKind {
    /// `allow`: grants.
    Allow,
    /// `dontaudit`: denials not to log.
    Dontaudit,
    /// `auditallow`: grants to log.
    Auditallow,
    /// `neverallow`: checked once every rule is expanded: no `allow` may
    /// grant these.
    Neverallow,
}

/// An access vector rule or a `type_transition`, as written.
#[derive(Debug)]
enum Rule {
    Av {
        kind: AvKind,
        sources: TypeSet,
        targets: TypeSet,
        class: u8,
        perms: u32,
        pos: Pos,
        /// Inside an `if`: the condition, and whether the rule is in its
        /// `else` branch.
        cond: Option<(u32, bool)>,
    },
    /// `type_transition` (with the new object's name, if it has one),
    /// `type_change` or `type_member`.
    Type {
        kind: TypeRule,
        sources: TypeSet,
        targets: TypeSet,
        class: u8,
        new: u32,
        pos: Pos,
    },
    /// `range_transition`.
    Range {
        sources: TypeSet,
        targets: TypeSet,
        classes: Vec<u8>,
        range: (Level, Level),
        pos: Pos,
    },
}

/// Which rule gives a new object's type.
#[derive(Clone, Debug, PartialEq, Eq)]
enum TypeRule {
    /// `type_transition`, for a new object of any name.
    Transition,
    /// `type_transition ... "NAME"`: for a new object of that name only.
    Named(Vec<u8>),
    /// `type_change`.
    Change,
    /// `type_member`.
    Member,
}

impl TypeRule {
    /// The statement's keyword, for messages.
    fn keyword(&self) -> &'static str {
        match self {
            TypeRule::Transition | TypeRule::Named(_) => "type_transition",
            TypeRule::Change => "type_change",
            TypeRule::Member => "type_member",
        }
    }
}

/// A word of a condition as written: a code, or a boolean by name and
/// where it is named.
#[derive(Debug, Clone)]
enum CondWord {
    Op(u32),
    Bool(String, Pos),
}

/// checkpolicy's spellings of its operators, shared by conditions and
/// constraints (`policy_scan.l`).
const AND: &[&str] = &["&&", "and", "AND"];
const OR: &[&str] = &["||", "or", "OR"];
const NOT: &[&str] = &["!", "not", "NOT"];
const XOR: &[&str] = &["^", "xor", "XOR"];
const EQUALS: &[&str] = &["==", "eq", "EQ"];
/// Words checkpolicy reserves in conditions, which a boolean may not be
/// named.
const COND_KEYWORDS: &[&str] = &[
    "and", "AND", "or", "OR", "not", "NOT", "xor", "XOR", "eq", "EQ", "true", "TRUE", "false",
    "FALSE", "if", "else", "bool",
];

/// The places (from 0) in SELinux's initial SID declarations of the SIDs
/// mlte uses, in the order of [`SIDS`] (kernel, file, unlabeled, security):
/// the kernel's SECINITSID_KERNEL 1, SECINITSID_FILE 5, SECINITSID_UNLABELED 3,
/// SECINITSID_SECURITY 2.
const KERNEL_SID_PLACES: [usize; SIDS.len()] = [0, 4, 2, 1];

/// In a constraint program as written, the word after an `OP_TYPE`: this
/// bit and the index of the name in `Parser::constraint_names`.
const NAME_MARK: u32 = 1 << 31;

/// The most types an attribute may stand for in a constraint (each is two
/// words of the program, which has at most `constraint::MAX_WORDS`).
const MAX_CONSTRAINT_ATTRIBUTE: usize = 24;

/// The deepest a constraint expression may nest (`not`, parentheses).
const MAX_NESTING: u32 = 256;

impl<'a> Parser<'a> {
    /// The position of the next token, or the end of the text.
    fn pos(&self) -> Pos {
        self.tokens.get(self.next).map_or(self.end, |t| t.pos)
    }

    fn error<T>(&self, message: String) -> Result<T, Error> {
        Err(Error {
            pos: self.pos(),
            message,
        })
    }

    /// What the next token is, for messages.
    fn found(&self) -> String {
        self.tokens
            .get(self.next)
            .map_or("the end of the policy".into(), |t| format!("'{}'", t.text))
    }

    /// The next token, which must be a name (`what` says which).
    fn word(&mut self, what: &str) -> Result<Token<'a>, Error> {
        match self.tokens.get(self.next) {
            Some(t) if !is_punct(t.text) && !t.text.starts_with('"') => {
                self.next += 1;
                Ok(t.clone())
            }
            _ => self.error(format!("expected {what}, found {}", self.found())),
        }
    }

    /// Skips `punct`, which must come next.
    fn expect(&mut self, punct: &str) -> Result<(), Error> {
        match self.tokens.get(self.next) {
            Some(t) if t.text == punct => {
                self.next += 1;
                Ok(())
            }
            _ => self.error(format!("expected '{punct}', found {}", self.found())),
        }
    }

    fn peek_is(&self, punct: &str) -> bool {
        self.tokens.get(self.next).is_some_and(|t| t.text == punct)
    }

    /// A declared type (or an alias of one), or `self` (`self_type`) if
    /// allowed.
    fn type_ref(&mut self, self_type: Option<u32>) -> Result<u32, Error> {
        let pos = self.pos();
        let t = self.word("a type")?;
        if t.text == "self" {
            if let Some(id) = self_type {
                return Ok(id);
            }
        }
        if self.attribute_ids.contains_key(t.text) {
            return Err(Error {
                pos,
                message: format!("'{}' is an attribute: a type is expected here", t.text),
            });
        }
        self.type_ids.get(t.text).copied().ok_or(Error {
            pos,
            message: format!(
                "unknown type '{}': declare it with 'type {};'",
                t.text, t.text
            ),
        })
    }

    /// A type, an alias or an attribute, or `self` if `with_self`.
    fn member(&mut self, with_self: bool) -> Result<Member, Error> {
        let pos = self.pos();
        let t = self.word("a type or an attribute")?;
        if t.text == "self" && with_self {
            return Ok(Member::SelfType);
        }
        if let Some(&a) = self.attribute_ids.get(t.text) {
            return Ok(Member::Attribute(a));
        }
        self.type_ids
            .get(t.text)
            .map(|&ty| Member::Type(ty))
            .ok_or(Error {
                pos,
                message: format!(
                    "unknown type or attribute '{}': declare it with 'type {};' or 'attribute {};'",
                    t.text, t.text, t.text
                ),
            })
    }

    /// Whether `name` is taken (a type, an alias, an attribute or `self`).
    fn declared(&self, name: &str) -> bool {
        name == "self" || self.type_ids.contains_key(name) || self.attribute_ids.contains_key(name)
    }

    /// A new name for a type, an alias or an attribute.
    fn new_name(&mut self, what: &str) -> Result<Token<'a>, Error> {
        let pos = self.pos();
        let name = self.word(what)?;
        if self.declared(name.text) {
            return Err(Error {
                pos,
                message: format!("'{}' is already declared", name.text),
            });
        }
        Ok(name)
    }

    /// The attribute named next.
    fn attribute_ref(&mut self) -> Result<usize, Error> {
        let pos = self.pos();
        let t = self.word("an attribute")?;
        self.attribute_ids.get(t.text).copied().ok_or(Error {
            pos,
            message: format!(
                "unknown attribute '{}': declare it with 'attribute {};' first",
                t.text, t.text
            ),
        })
    }

    /// `, ATTR, ATTR ...` after a type: adds `ty` to each.
    fn attributes_of(&mut self, ty: u32) -> Result<(), Error> {
        while self.peek_is(",") {
            self.next += 1;
            let a = self.attribute_ref()?;
            if let Some(set) = self.attributes.get_mut(a) {
                set.insert(ty);
            }
        }
        Ok(())
    }

    /// `alias NAME` or `alias { NAME ... }`: more names for `ty`.
    fn aliases_of(&mut self, ty: u32) -> Result<(), Error> {
        self.one_or_braced(|p| {
            let name = p.new_name("an alias")?;
            p.type_ids.insert(name.text.to_string(), ty);
            Ok(())
        })
    }

    /// `item` once, or for each of a `{ }` list of at least one.
    fn one_or_braced(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Result<(), Error>,
    ) -> Result<(), Error> {
        if !self.peek_is("{") {
            return item(self);
        }
        self.expect("{")?;
        loop {
            item(self)?;
            if self.peek_is("}") {
                break;
            }
        }
        self.expect("}")
    }

    /// `N` of `prefix N` (`s3`, `c7`), at most `max`.
    fn numbered(&mut self, prefix: char, what: &str, max: u16) -> Result<u16, Error> {
        let pos = self.pos();
        let t = self.word(what)?;
        t.text
            .strip_prefix(prefix)
            .and_then(
                |n| match super::category::decimal(n.as_bytes(), usize::from(max)) {
                    Ok((value, len)) if len == n.len() => u16::try_from(value).ok(),
                    _ => None,
                },
            )
            .ok_or(Error {
                pos,
                message: format!(
                    "expected {what} ({prefix}0 to {prefix}{max}), found '{}'",
                    t.text
                ),
            })
    }

    /// A run of tokens written without space between them (a context or
    /// a level: `user_t:s1:c0,c1`), joined, and where it starts.
    fn glued(&mut self, what: &str) -> Result<(String, Pos), Error> {
        let first = self.word(what)?;
        let mut text = first.text.to_string();
        let mut end = first.pos.col as usize + first.text.len();
        while let Some(t) = self.tokens.get(self.next) {
            if t.pos.line != first.pos.line || t.pos.col as usize != end || t.text == ";" {
                break;
            }
            text.push_str(t.text);
            end += t.text.len();
            self.next += 1;
        }
        Ok((text, first.pos))
    }

    /// An error at `pos`, `at` bytes further on the same line.
    fn error_at<T>(pos: Pos, at: usize, message: String) -> Result<T, Error> {
        Err(Error {
            pos: Pos {
                line: pos.line,
                col: pos
                    .col
                    .saturating_add(u32::try_from(at).unwrap_or(u32::MAX)),
            },
            message,
        })
    }

    /// Parses the level `text` (starting at `pos`): its sensitivity and
    /// categories must be declared.
    fn level_of(&self, text: &str, pos: Pos) -> Result<Level, Error> {
        let level = Level::parse(text.as_bytes()).or_else(|e| {
            Self::error_at(
                pos,
                e.at,
                format!("{e}: expected a level 'sN[:CATEGORIES]'"),
            )
        })?;
        if !self.policy.sensitivities.contains(&level.sensitivity) {
            return Self::error_at(
                pos,
                0,
                format!(
                    "sensitivity s{} is not declared: declare it with 'sensitivity s{};' first",
                    level.sensitivity, level.sensitivity
                ),
            );
        }
        if let Some(c) = (0..super::category::MAX_CATEGORIES)
            .find(|&c| level.categories.has(c) && !self.policy.categories.contains(&(c as u16)))
        {
            return Self::error_at(
                pos,
                0,
                format!("category c{c} is not declared: declare it with 'category c{c};' first"),
            );
        }
        Ok(level)
    }

    /// A context, `USER:ROLE:TYPE:LOW[ - HIGH]`, written without spaces
    /// but around the `-`: the user and the role must be declared (they
    /// are checked again once the policy is read), the type too, and the
    /// levels allowed by `level` statements.
    fn context(&mut self) -> Result<TextContext, Error> {
        let (text, pos) = self.glued("a context USER:ROLE:TYPE:LEVEL")?;
        let parts: Vec<&str> = text.splitn(4, ':').collect();
        let [user, role, ty, range] = parts[..] else {
            return Self::error_at(
                pos,
                0,
                format!("expected a context USER:ROLE:TYPE:LEVEL, found '{text}'"),
            );
        };
        if !self.users.contains_key(user) {
            return Self::error_at(
                pos,
                0,
                format!("unknown user '{user}': declare it with 'user {user} roles ...;' first"),
            );
        }
        if !self.roles.contains_key(role) {
            return Self::error_at(
                pos,
                user.len() + 1,
                format!("unknown role '{role}': declare it with 'role {role};' first"),
            );
        }
        let ty_at = user.len() + role.len() + 2;
        let Some(&ty_id) = self.type_ids.get(ty) else {
            return Self::error_at(
                pos,
                ty_at,
                format!("unknown type '{ty}': declare it with 'type {ty};' first"),
            );
        };
        let level_pos = Pos {
            line: pos.line,
            col: pos
                .col
                .saturating_add(u32::try_from(ty_at + ty.len() + 1).unwrap_or(u32::MAX)),
        };
        let (low, high) = self.range_of(range, level_pos)?;
        Ok(TextContext {
            user: user.to_string(),
            role: role.to_string(),
            ty: ty_id,
            low,
            high,
            pos,
        })
    }

    /// The range `text` at `pos` (`LOW` or `LOW-HIGH`), with a `- HIGH`
    /// that follows with spaces: declared levels, allowed by `level`
    /// statements, the high one dominating the low one.
    fn range_of(&mut self, text: &str, pos: Pos) -> Result<(Level, Level), Error> {
        let (low_text, high_text) = match text.split_once('-') {
            Some((low, high)) => (low, Some((high.to_string(), pos, low.len() + 1))),
            None => (text, None),
        };
        let low = self.allowed_level(low_text, pos, 0)?;
        let high_text = match high_text {
            Some(h) => Some(h),
            None if self.peek_is("-") => {
                self.next += 1;
                let (text, pos) = self.glued("a level")?;
                Some((text, pos, 0))
            }
            None => None,
        };
        let high = match high_text {
            Some((text, pos, at)) => {
                let high = self.allowed_level(&text, pos, at)?;
                if !high.dominates(&low) {
                    return Self::error_at(pos, at, format!("{high} does not dominate {low}"));
                }
                high
            }
            None => low,
        };
        Ok((low, high))
    }

    /// The level `text`, `at` bytes after `pos`: declared, and allowed by
    /// a `level` statement.
    fn allowed_level(&self, text: &str, pos: Pos, at: usize) -> Result<Level, Error> {
        let pos = Pos {
            line: pos.line,
            col: pos
                .col
                .saturating_add(u32::try_from(at).unwrap_or(u32::MAX)),
        };
        let level = self.level_of(text, pos)?;
        let allowed = self
            .policy
            .levels
            .get(&level.sensitivity)
            .is_some_and(|cats| cats.contains(&level.categories));
        if !allowed {
            return Self::error_at(
                pos,
                0,
                format!("no 'level' statement allows {level}: declare one first"),
            );
        }
        Ok(level)
    }

    /// Skips the word `keyword` if it comes next.
    /// Whether the next token is one of `spellings`, as [`Parser::keyword`].
    fn keyword_of(&mut self, spellings: &[&str]) -> bool {
        spellings.iter().any(|k| self.keyword(k))
    }

    fn keyword(&mut self, keyword: &str) -> bool {
        let found = self
            .tokens
            .get(self.next)
            .is_some_and(|t| t.text == keyword);
        if found {
            self.next += 1;
        }
        found
    }

    /// `or` of terms, in postfix.
    fn expr(&mut self, out: &mut Vec<u32>) -> Result<(), Error> {
        self.conjunction(out)?;
        while self.keyword_of(OR) {
            self.conjunction(out)?;
            out.push(OP_OR);
        }
        Ok(())
    }

    /// `and` of factors, in postfix.
    fn conjunction(&mut self, out: &mut Vec<u32>) -> Result<(), Error> {
        self.factor(out)?;
        while self.keyword_of(AND) {
            self.factor(out)?;
            out.push(OP_AND);
        }
        Ok(())
    }

    /// `not` factor, `( expr )`, or a test, at most [`MAX_NESTING`] deep.
    fn factor(&mut self, out: &mut Vec<u32>) -> Result<(), Error> {
        if self.depth >= MAX_NESTING {
            return self.error(format!(
                "constraint nested more than {MAX_NESTING} deep (not, parentheses)"
            ));
        }
        self.depth += 1;
        let result = self.factor_inner(out);
        self.depth -= 1;
        result
    }

    fn factor_inner(&mut self, out: &mut Vec<u32>) -> Result<(), Error> {
        if self.keyword_of(NOT) {
            self.factor(out)?;
            out.push(OP_NOT);
            return Ok(());
        }
        if self.peek_is("(") {
            self.expect("(")?;
            self.expr(out)?;
            return self.expect(")");
        }
        let pos = self.pos();
        let left = self.word("l1, l2, h1, h2, u1, u2, r1, r2, t1, t2, not or '('")?;
        match left.text {
            "u3" | "r3" | "t3" if !self.with_third => {
                return Self::error_at(
                    pos,
                    0,
                    format!(
                        "'{}': not supported by mlte (validatetrans only)",
                        left.text
                    ),
                )
            }
            "l1" | "l2" | "h1" | "h2" if self.without_levels => {
                return Self::error_at(
                    pos,
                    0,
                    if self.with_third {
                        format!(
                            "'{}': a level in validatetrans: use mlsvalidatetrans",
                            left.text
                        )
                    } else {
                        format!("'{}': a level in constrain: use mlsconstrain", left.text)
                    },
                )
            }
            "l1" | "l2" | "h1" | "h2" => {
                let rel_pos = self.pos();
                let rel = match self.tokens.get(self.next).map(|t| t.text) {
                    Some("dom") => DOM,
                    Some("domby") => DOMBY,
                    Some("eq" | "==") => EQ,
                    Some("!=") => NEQ,
                    Some("incomp") => INCOMP,
                    _ => {
                        return Self::error_at(
                            rel_pos,
                            0,
                            format!(
                                "expected dom, domby, eq, incomp, == or !=, found {}",
                                self.found()
                            ),
                        )
                    }
                };
                self.next += 1;
                let right = self.word("l1, l2, h1 or h2")?;
                let pair = |a: &str, b: &str| {
                    super::constraint::PAIRS
                        .iter()
                        .position(|p| *p == format!("{a} {b}"))
                        .and_then(|i| u32::try_from(i).ok())
                };
                let swapped = match rel {
                    DOM => DOMBY,
                    DOMBY => DOM,
                    other => other,
                };
                let (rel, pair) = match (pair(left.text, right.text), pair(right.text, left.text)) {
                    (Some(p), _) => (rel, p),
                    (None, Some(p)) => (swapped, p),
                    _ => {
                        return Self::error_at(
                            pos,
                            0,
                            format!(
                                "'{} {}': expected a level pair l1 l2, l1 h2, h1 l2, h1 h2, l1 h1 \
                                 or l2 h2",
                                left.text, right.text
                            ),
                        )
                    }
                };
                out.push(OP_LEVEL | rel << 8 | pair << 12);
            }
            "u1" | "u2" | "r1" | "r2" | "t1" | "t2" | "u3" | "r3" | "t3" => {
                let (kind, side) = left.text.split_at(1);
                // `u3 == NAME`: the third context takes names only, as
                // checkpolicy's grammar.
                let third = side == "3";
                let side = u32::from(side == "2");
                let attr = match kind {
                    "u" => ATTR_USER,
                    "r" => ATTR_ROLE,
                    _ => ATTR_TYPE,
                };
                let negated = if self.peek_is("==") || self.peek_is("eq") {
                    false
                } else if self.peek_is("!=") {
                    true
                } else if kind == "r" && ["dom", "domby", "incomp"].iter().any(|w| self.peek_is(w))
                {
                    return self.error(format!(
                        "{} {}: role dominance is not supported by mlte",
                        left.text,
                        self.found().trim_matches('\'')
                    ));
                } else {
                    return self.error(format!("expected '==' or '!=', found {}", self.found()));
                };
                self.next += 1;
                let other = format!("{kind}{}", 2 - side);
                if !third && self.peek_is(&other) {
                    self.next += 1;
                    out.push(OP_SAME | u32::from(negated) << 9 | attr << 10);
                    return Ok(());
                }
                if ["u1", "u2", "r1", "r2", "t1", "t2", "u3", "r3", "t3"]
                    .iter()
                    .any(|w| self.peek_is(w))
                {
                    let expected = if third {
                        "names".to_string()
                    } else {
                        format!("{other} or names")
                    };
                    return self.error(format!(
                        "{} {} {}: expected {expected}",
                        left.text,
                        if negated { "!=" } else { "==" },
                        self.found().trim_matches('\'')
                    ));
                }
                // A name is a mark, resolved once the whole policy is read
                // (`finish`): SELinux's policies put their constraints
                // before their types, and an attribute stands for the
                // types it has by then.
                let what = match attr {
                    ATTR_USER => "a user",
                    ATTR_ROLE => "a role",
                    _ => "a type or an attribute",
                };
                let name = |p: &mut Self| -> Result<u32, Error> {
                    let t = p.word(what)?;
                    let i = u32::try_from(p.constraint_names.len()).unwrap_or(u32::MAX);
                    p.constraint_names.push((t.text.to_string(), t.pos, attr));
                    Ok(NAME_MARK | i)
                };
                let mut names = Vec::new();
                if self.peek_is("{") {
                    self.expect("{")?;
                    names.push(name(self)?);
                    while !self.peek_is("}") {
                        names.push(name(self)?);
                    }
                    self.expect("}")?;
                } else {
                    names.push(name(self)?);
                }
                let flags =
                    side | u32::from(negated) << 1 | attr << 2 | if third { THIRD >> 8 } else { 0 };
                for (i, id) in names.into_iter().enumerate() {
                    out.extend([OP_NAME | flags << 8, id]);
                    if i > 0 {
                        // Equal to one of them; different from all of them.
                        out.push(if negated { OP_AND } else { OP_OR });
                    }
                }
            }
            other => {
                return Self::error_at(
                    pos,
                    0,
                    format!(
                        "expected l1, l2, h1, h2, u1, u2, r1, r2, t1, t2, not or '(', found \
                         '{other}'"
                    ),
                )
            }
        }
        Ok(())
    }

    /// One type or attribute, or a `{ }` set of them in which `-NAME`
    /// takes types out; `self` if `with_self`.
    fn type_set(&mut self, with_self: bool) -> Result<TypeSet, Error> {
        let mut set = TypeSet::default();
        if !self.peek_is("{") {
            set.members.push(self.member(with_self)?);
            return Ok(set);
        }
        self.expect("{")?;
        loop {
            if self.peek_is("-") {
                self.next += 1;
                set.excluded.push(self.member(false)?);
            } else {
                set.members.push(self.member(with_self)?);
            }
            if self.peek_is("}") {
                break;
            }
        }
        self.expect("}")?;
        Ok(set)
    }

    /// After `allow`, `dontaudit` or `neverallow` (at `pos`): `SOURCES
    /// TARGETS : CLASSES PERMS`, one rule per class of mlte's; a class the
    /// policy declares that mlte does not mediate is counted and left out.
    fn av_rule(&mut self, kind: AvKind, pos: Pos) -> Result<(), Error> {
        let sources = self.type_set(false)?;
        let targets = self.type_set(true)?;
        self.expect(":")?;
        let classes = self.class_set()?;
        let names = self.perm_names()?;
        for (class, perms) in self.perms_of(&classes, &names)? {
            self.rules.push(Rule::Av {
                kind,
                sources: sources.clone(),
                targets: targets.clone(),
                class,
                perms,
                pos,
                cond: self.cond,
            });
        }
        if classes.iter().any(|c| *c == ClassRef::Other) {
            self.policy.left_out += 1;
        }
        Ok(())
    }

    /// A class named in a rule: mlte's, or one the policy declared.
    fn class_ref(&mut self) -> Result<ClassRef, Error> {
        let pos = self.pos();
        let t = self.word("a class")?;
        // A policy that declares classes must declare mlte's too, as
        // checkpolicy demands of every class a rule names.
        let declares = self.declared.is_empty() || self.declared.contains_key(t.text);
        if let (Some(i), true) = (
            CLASSES.iter().position(|(name, _)| *name == t.text),
            declares,
        ) {
            return Ok(ClassRef::Mlte(u8::try_from(i).unwrap_or(0)));
        }
        if self.declared.contains_key(t.text) {
            return Ok(ClassRef::Other);
        }
        Err(Error {
            pos,
            message: format!(
                "unknown class '{}': expected one of {} (or a class the policy declares)",
                t.text,
                CLASSES
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
    }

    /// One class or a `{ }` set of them.
    fn class_set(&mut self) -> Result<Vec<ClassRef>, Error> {
        let mut out = Vec::new();
        self.one_or_braced(|p| {
            out.push(p.class_ref()?);
            Ok(())
        })?;
        Ok(out)
    }

    /// `*`, one permission name or a `{ }` set of them.
    fn perm_names(&mut self) -> Result<PermNames<'a>, Error> {
        if self.peek_is("*") {
            self.next += 1;
            return Ok(PermNames::All);
        }
        if !self.peek_is("{") {
            return Ok(PermNames::Names(vec![self.word("a permission")?]));
        }
        self.expect("{")?;
        let mut names = vec![self.word("a permission")?];
        while !self.peek_is("}") {
            names.push(self.word("a permission")?);
        }
        self.expect("}")?;
        Ok(PermNames::Names(names))
    }

    /// The bits `names` give in each of mlte's `classes`. A permission the
    /// policy declares for the class but mlte does not mediate gives no
    /// bit; one the class does not have is an error (checkpolicy's too).
    fn perms_of(
        &self,
        classes: &[ClassRef],
        names: &PermNames<'_>,
    ) -> Result<Vec<(u8, u32)>, Error> {
        let mut out = Vec::new();
        for &class in classes {
            let ClassRef::Mlte(class) = class else {
                continue;
            };
            let (class_name, perms) = CLASSES[usize::from(class)];
            // A policy that declares classes (SELinux's form) has the
            // permissions it declares, as checkpolicy: `*` is those, a
            // name must be one, and a permission of mlte's it does not
            // declare is never granted (SELinux's handle_unknown deny).
            let declared = self.declared.get(class_name);
            let has = |p: &str| declared.is_none_or(|d| d.contains(p));
            let bits = match names {
                PermNames::All => perms
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| has(p))
                    .fold(0u32, |bits, (bit, _)| bits | 1 << bit),
                PermNames::Names(names) => {
                    let mut bits = 0;
                    for name in names {
                        let bit = perms.iter().position(|p| *p == name.text);
                        if let (Some(bit), true) = (bit, has(name.text)) {
                            bits |= 1u32 << bit;
                        } else if !declared.is_some_and(|d| d.contains(name.text)) {
                            return Err(Error {
                                pos: name.pos,
                                message: format!(
                                    "class {class_name} has no permission '{}': expected one of {}",
                                    name.text,
                                    perms.join(", ")
                                ),
                            });
                        }
                    }
                    bits
                }
            };
            if bits != 0 {
                out.push((class, bits));
            }
        }
        Ok(out)
    }

    /// `{ PERM ... }`, as a class or a common declares them.
    fn perm_list(&mut self) -> Result<BTreeSet<String>, Error> {
        self.expect("{")?;
        let mut out = BTreeSet::new();
        while !self.peek_is("}") {
            out.insert(self.word("a permission")?.text.to_string());
        }
        self.expect("}")?;
        Ok(out)
    }

    /// After `class`: `NAME` (a declaration), `NAME { PERMS }` or `NAME
    /// inherits COMMON [{ PERMS }]`. A class mlte mediates keeps mlte's
    /// permissions; the policy's others are accepted in its rules and give
    /// no bit.
    fn class_declaration(&mut self) -> Result<(), Error> {
        let name = self.word("a class name")?;
        let mut perms = BTreeSet::new();
        if self.keyword("inherits") {
            let pos = self.pos();
            let common = self.word("a common name")?;
            perms = self.commons.get(common.text).cloned().ok_or(Error {
                pos,
                message: format!(
                    "unknown common '{}': declare it with 'common {} {{ ... }}' first",
                    common.text, common.text
                ),
            })?;
        }
        if self.peek_is("{") {
            perms.extend(self.perm_list()?);
        }
        self.declared
            .entry(name.text.to_string())
            .or_default()
            .extend(perms);
        Ok(())
    }

    /// Whether the `sid` just read starts a declaration (`sid NAME`, no
    /// context on its line) rather than a context (`sid NAME CONTEXT`).
    fn next_is_sid_declaration(&self) -> bool {
        match (self.tokens.get(self.next), self.tokens.get(self.next + 1)) {
            (Some(name), Some(after)) => after.pos.line != name.pos.line,
            (Some(_), None) => true,
            _ => false,
        }
    }

    /// The end of a `sid NAME CONTEXT`: `;` (mlte's form) or none
    /// (SELinux's).
    fn end_sid(&mut self) -> Result<(), Error> {
        if self.peek_is(";") {
            self.next += 1;
        }
        Ok(())
    }

    /// `dominance { s0 s1 ... }`: mlte's sensitivities dominate in numeric
    /// order, so the list must be the declared ones in that order.
    fn dominance(&mut self) -> Result<(), Error> {
        let pos = self.pos();
        self.expect("{")?;
        let mut order = Vec::new();
        while !self.peek_is("}") {
            order.push(self.numbered('s', "a sensitivity", super::level::MAX_SENSITIVITY)?);
        }
        self.expect("}")?;
        let mut declared = self.policy.sensitivities.clone();
        declared.sort_unstable();
        if order != declared {
            return Self::error_at(
                pos,
                0,
                "a dominance other than the declared sensitivities in ascending order: not \
                 supported by mlte"
                    .to_string(),
            );
        }
        Ok(())
    }

    /// `LOW [- HIGH]`: levels allowed by `level` statements, the high one
    /// dominating the low one.
    fn range(&mut self) -> Result<(Level, Level), Error> {
        let (text, pos) = self.glued("a level")?;
        self.range_of(&text, pos)
    }

    /// A name-based `type_transition`'s `"NAME"`, if one comes next: 1 to
    /// 255 bytes (a file name's most, `NAME_MAX`), none a `/` (checkpolicy
    /// refuses those and empty names).
    fn object_name(&mut self) -> Result<Option<Vec<u8>>, Error> {
        let Some(t) = self
            .tokens
            .get(self.next)
            .filter(|t| t.text.starts_with('"'))
        else {
            return Ok(None);
        };
        let name = t.text.as_bytes()[1..t.text.len() - 1].to_vec();
        if name.is_empty() || name.contains(&b'/') {
            return self.error(format!(
                "{}: a new object's name has 1 or more bytes, none a '/'",
                t.text
            ));
        }
        if name.len() > super::compiled::MAX_OBJECT_NAME {
            return self.error(format!(
                "a new object's name of {} bytes: a file name has at most {} (longer is \
                 not supported by mlte)",
                name.len(),
                super::compiled::MAX_OBJECT_NAME
            ));
        }
        self.next += 1;
        Ok(Some(name))
    }

    /// `{ ROLE ... }` or one role, each declared (`object_r` always is).
    fn role_names(&mut self) -> Result<Vec<String>, Error> {
        let mut out = Vec::new();
        self.one_or_braced(|p| {
            let pos = p.pos();
            let role = p.word("a role")?;
            if !p.roles.contains_key(role.text) {
                return Err(Error {
                    pos,
                    message: format!(
                        "unknown role '{}': declare it with 'role {};' first",
                        role.text, role.text
                    ),
                });
            }
            out.push(role.text.to_string());
            Ok(())
        })?;
        Ok(out)
    }

    /// Whether the `allow` just read is a role allow (`allow R1 R2;`): its
    /// first name is a role and not a type or an attribute.
    fn next_is_role_allow(&self) -> bool {
        let at = if self.peek_is("{") {
            self.next + 1
        } else {
            self.next
        };
        self.tokens
            .get(at)
            .is_some_and(|t| self.roles.contains_key(t.text) && !self.declared(t.text))
    }

    /// After `if` (at `pos`): `( CONDITION ) { RULES } [else { RULES }]`,
    /// as checkpolicy's; the rules are `allow`, `auditallow` and
    /// `dontaudit`.
    fn if_statement(&mut self, pos: Pos) -> Result<(), Error> {
        let mut words = Vec::new();
        self.cond_or(&mut words)?;
        let cond = u32::try_from(self.conds.len()).unwrap_or(u32::MAX);
        self.conds.push((words, pos));
        self.cond_block(cond, false)?;
        if self.keyword("else") {
            self.cond_block(cond, true)?;
        }
        Ok(())
    }

    /// `{ RULES }` of condition `cond` (its `else` branch if `in_else`).
    fn cond_block(&mut self, cond: u32, in_else: bool) -> Result<(), Error> {
        self.expect("{")?;
        self.cond = Some((cond, in_else));
        let result = (|| {
            while !self.peek_is("}") {
                let pos = self.pos();
                let keyword = self.word("a rule or '}'")?;
                match keyword.text {
                    "allow" => self.av_rule(AvKind::Allow, pos)?,
                    "auditallow" => self.av_rule(AvKind::Auditallow, pos)?,
                    "dontaudit" => self.av_rule(AvKind::Dontaudit, pos)?,
                    other => {
                        return Self::error_at(
                            pos,
                            0,
                            format!(
                                "'{other}' inside an if: not supported by mlte (allow, \
                                 auditallow and dontaudit are)"
                            ),
                        )
                    }
                }
                self.expect(";")?;
            }
            self.expect("}")
        })();
        self.cond = None;
        result
    }

    /// A condition: `||` of `^` of `&&` of `==`/`!=` chains of booleans,
    /// `!` and parenthesised conditions, with checkpolicy's precedence
    /// (`cond_eq`), in postfix.
    fn cond_or(&mut self, out: &mut Vec<CondWord>) -> Result<(), Error> {
        self.cond_xor(out)?;
        while self.keyword_of(OR) {
            self.cond_xor(out)?;
            out.push(CondWord::Op(COND_OR));
        }
        Ok(())
    }

    fn cond_xor(&mut self, out: &mut Vec<CondWord>) -> Result<(), Error> {
        self.cond_and(out)?;
        while self.keyword_of(XOR) {
            self.cond_and(out)?;
            out.push(CondWord::Op(COND_XOR));
        }
        Ok(())
    }

    fn cond_and(&mut self, out: &mut Vec<CondWord>) -> Result<(), Error> {
        self.cond_eq(out)?;
        while self.keyword_of(AND) {
            self.cond_eq(out)?;
            out.push(CondWord::Op(COND_AND));
        }
        Ok(())
    }

    /// Operands joined by `==` and `!=`, from the left. As in
    /// checkpolicy's grammar, where `!` binds looser than `==`, a `!`
    /// takes the rest of the chain: `!a == b` is `!(a == b)`, `a == !b ==
    /// c` is `a == !(b == c)`.
    fn cond_eq(&mut self, out: &mut Vec<CondWord>) -> Result<(), Error> {
        self.cond_operand(out)?;
        loop {
            let op = if self.keyword_of(EQUALS) {
                COND_EQ
            } else if self.keyword("!=") {
                COND_NEQ
            } else {
                return Ok(());
            };
            self.cond_operand(out)?;
            out.push(CondWord::Op(op));
        }
    }

    fn cond_operand(&mut self, out: &mut Vec<CondWord>) -> Result<(), Error> {
        if !self.keyword_of(NOT) {
            return self.cond_primary(out);
        }
        if self.depth >= MAX_NESTING {
            return self.error(format!("condition nested more than {MAX_NESTING} deep"));
        }
        self.depth += 1;
        let result = self.cond_eq(out);
        self.depth -= 1;
        result?;
        out.push(CondWord::Op(COND_NOT));
        Ok(())
    }

    fn cond_primary(&mut self, out: &mut Vec<CondWord>) -> Result<(), Error> {
        if self.keyword("(") {
            if self.depth >= MAX_NESTING {
                return self.error(format!("condition nested more than {MAX_NESTING} deep"));
            }
            self.depth += 1;
            let result = self.cond_or(out);
            self.depth -= 1;
            result?;
            return self.expect(")");
        }
        let pos = self.pos();
        let name = self.word("a boolean, '!' or '('")?;
        // Resolved once the whole policy is read (`finish_conds`): as
        // checkpolicy's, a boolean may be declared after its use.
        out.push(CondWord::Bool(name.text.to_string(), pos));
        Ok(())
    }

    fn statement(&mut self) -> Result<(), Error> {
        let pos = self.pos();
        let keyword = self.word("a statement")?;
        // SELinux's declarations, which end without ';'.
        match keyword.text {
            "class" => return self.class_declaration(),
            "common" => {
                let name = self.word("a common name")?;
                let perms = self.perm_list()?;
                self.commons.insert(name.text.to_string(), perms);
                return Ok(());
            }
            "sid" if self.next_is_sid_declaration() => {
                let name = self.word("a sid name")?;
                if self.sid_names.insert(name.text.to_string()) {
                    self.sid_order.push(name.text.to_string());
                }
                return Ok(());
            }
            "dominance" => return self.dominance(),
            _ => {}
        }
        match keyword.text {
            "type" => {
                let name = self.new_name("a type name")?;
                let id = u32::try_from(self.policy.types.len()).unwrap_or(u32::MAX);
                self.type_ids.insert(name.text.to_string(), id);
                self.policy.types.push(name.text.to_string());
                if self.keyword("alias") {
                    self.aliases_of(id)?;
                }
                self.attributes_of(id)?;
            }
            "attribute" => {
                let name = self.new_name("an attribute name")?;
                self.attribute_ids
                    .insert(name.text.to_string(), self.attributes.len());
                self.attributes.push(BTreeSet::new());
            }
            "typeattribute" => {
                let ty = self.type_ref(None)?;
                let a = self.attribute_ref()?;
                if let Some(set) = self.attributes.get_mut(a) {
                    set.insert(ty);
                }
                self.attributes_of(ty)?;
            }
            "typealias" => {
                let ty = self.type_ref(None)?;
                if !self.keyword("alias") {
                    return self.error(format!("expected 'alias', found {}", self.found()));
                }
                self.aliases_of(ty)?;
            }
            "sensitivity" => {
                let s = self.numbered('s', "a sensitivity", super::level::MAX_SENSITIVITY)?;
                self.policy.sensitivities.push(s);
            }
            "category" => {
                let max = u16::try_from(super::category::MAX_CATEGORIES - 1).unwrap_or(0);
                let c = self.numbered('c', "a category", max)?;
                self.policy.categories.push(c);
            }
            "allow" if self.next_is_role_allow() => {
                let from = self.role_names()?;
                let to = self.role_names()?;
                self.role_allows.push((from, to));
            }
            "allow" => self.av_rule(AvKind::Allow, pos)?,
            "dontaudit" => self.av_rule(AvKind::Dontaudit, pos)?,
            "auditallow" => self.av_rule(AvKind::Auditallow, pos)?,
            "permissive" => {
                let ty = self.type_ref(None)?;
                self.policy.permissive.insert(ty);
            }
            "neverallow" => self.av_rule(AvKind::Neverallow, pos)?,
            "type_transition" | "type_change" | "type_member" => {
                let sources = self.type_set(false)?;
                let targets = self.type_set(true)?;
                self.expect(":")?;
                // One class or a set, as checkpolicy: a rule per class.
                let classes = self.class_set()?;
                let new = self.type_ref(None)?;
                let kind = match keyword.text {
                    "type_change" => TypeRule::Change,
                    "type_member" => TypeRule::Member,
                    _ => match self.object_name()? {
                        Some(name) => TypeRule::Named(name),
                        None => TypeRule::Transition,
                    },
                };
                let mut others = false;
                for class in classes {
                    match class {
                        ClassRef::Mlte(class) => self.rules.push(Rule::Type {
                            kind: kind.clone(),
                            sources: sources.clone(),
                            targets: targets.clone(),
                            class,
                            new: new.clone(),
                            pos,
                        }),
                        ClassRef::Other => others = true,
                    }
                }
                if others {
                    self.policy.left_out += 1;
                }
            }
            "range_transition" => {
                let sources = self.type_set(false)?;
                let targets = self.type_set(false)?;
                // As checkpolicy: the class is `process` unless named.
                let classes = if self.peek_is(":") {
                    self.next += 1;
                    self.class_set()?
                } else {
                    vec![ClassRef::Mlte(Class::Process as u8)]
                };
                let range = self.range()?;
                let ours: Vec<u8> = classes
                    .iter()
                    .filter_map(|c| match c {
                        ClassRef::Mlte(c) => Some(*c),
                        ClassRef::Other => None,
                    })
                    .collect();
                if ours.len() < classes.len() {
                    self.policy.left_out += 1;
                }
                self.rules.push(Rule::Range {
                    sources,
                    targets,
                    classes: ours,
                    range,
                    pos,
                });
            }
            "level" => {
                let (text, pos) = self.glued("a level")?;
                let level = self.level_of(&text, pos)?;
                if self.policy.levels.contains_key(&level.sensitivity) {
                    return Self::error_at(
                        pos,
                        0,
                        format!("a second level statement for s{}", level.sensitivity),
                    );
                }
                self.policy
                    .levels
                    .insert(level.sensitivity, level.categories);
            }
            "sid" => {
                let pos = self.pos();
                let name = self.word("a sid name")?;
                // Declared SIDs (SELinux's form) mean the kernel's initial
                // SID of their place in the declarations, whatever their
                // names, as checkpolicy numbers them and the kernel reads
                // them (policydb_load_isids): 1 kernel, 3 unlabeled, 5
                // file. Otherwise, by name.
                let by_place = self
                    .sid_order
                    .iter()
                    .position(|n| n == name.text)
                    .and_then(|place| KERNEL_SID_PLACES.iter().position(|&p| p == place));
                let by_name = SIDS.iter().position(|(_, n)| *n == name.text);
                let found = if self.sid_order.is_empty() {
                    by_name
                } else {
                    by_place
                };
                let Some(i) = found else {
                    if self.sid_names.contains(name.text) {
                        // A SID of SELinux's that mlte does not use: its
                        // context is checked, then left out.
                        self.context()?;
                        return self.end_sid();
                    }
                    return Self::error_at(
                        pos,
                        0,
                        format!(
                            "unknown sid '{}': expected kernel, file, unlabeled or security (or \
                             one a 'sid {}' declaration names)",
                            name.text, name.text
                        ),
                    );
                };
                if self.sid_contexts[i].is_some() {
                    return Self::error_at(pos, 0, format!("a second sid {}", name.text));
                }
                self.sid_contexts[i] = Some(self.context()?);
                return self.end_sid();
            }
            "policycap" => {
                // Capabilities choose among SELinux's behaviours. mlte has
                // one behaviour for most (it always checks `open`, for
                // one); those of labelling are kept.
                let name = self.word("a policy capability")?;
                if name.text == "genfs_seclabel_wildcard" {
                    return Self::error_at(
                        name.pos,
                        0,
                        "'policycap genfs_seclabel_wildcard': not supported by mlte".to_string(),
                    );
                }
                if let Some(&(_, bit)) = POLICYCAP_NAMES.iter().find(|(n, _)| *n == name.text) {
                    self.policy.policycaps |= bit;
                }
            }
            "role" => {
                let pos = self.pos();
                let name = self.word("a role name")?;
                if self.declared(name.text) {
                    return Self::error_at(
                        pos,
                        0,
                        format!(
                            "'{}' is a type or an attribute: a role needs its own name",
                            name.text
                        ),
                    );
                }
                self.roles.entry(name.text.to_string()).or_default();
                if self.keyword("types") {
                    if name.text.as_bytes() == OBJECT_R {
                        return Self::error_at(
                            pos,
                            0,
                            "object_r may have every type: it takes no 'types'".to_string(),
                        );
                    }
                    let set = self.type_set(false)?;
                    if let Some(sets) = self.roles.get_mut(name.text) {
                        sets.push(set);
                    }
                }
            }
            "user" => {
                let pos = self.pos();
                let name = self.word("a user name")?;
                if self.users.contains_key(name.text) {
                    return Self::error_at(pos, 0, format!("a second user {}", name.text));
                }
                if !self.keyword("roles") {
                    return self.error(format!("expected 'roles', found {}", self.found()));
                }
                let roles = self.role_names()?;
                let mut default = None;
                if self.keyword("level") {
                    let (text, pos) = self.glued("a level")?;
                    default = Some((self.allowed_level(&text, pos, 0)?, pos));
                }
                if !self.keyword("range") {
                    return self.error(format!(
                        "expected 'range LOW - HIGH' (a user's MLS range), found {}",
                        self.found()
                    ));
                }
                let (low, high) = self.range()?;
                if let Some((level, pos)) = default {
                    if !level.dominates(&low) || !high.dominates(&level) {
                        return Self::error_at(
                            pos,
                            0,
                            format!("the default level {level} is outside the range"),
                        );
                    }
                }
                self.users
                    .insert(name.text.to_string(), UserDecl { roles, low, high });
            }
            "role_transition" => {
                let roles = self.role_names()?;
                let types = self.type_set(false)?;
                let class = if self.peek_is(":") {
                    self.next += 1;
                    self.class_ref()?
                } else {
                    ClassRef::Mlte(Class::Process as u8)
                };
                let new = self.role_names()?;
                let [new] = &new[..] else {
                    return Self::error_at(pos, 0, "a role_transition gives one role".to_string());
                };
                match class {
                    ClassRef::Mlte(class) => self.role_transitions.push(RoleTransition {
                        roles,
                        types,
                        class,
                        new: new.clone(),
                        pos,
                    }),
                    ClassRef::Other => self.policy.left_out += 1,
                }
            }
            "bool" => {
                let pos = self.pos();
                let name = self.word("a boolean name")?;
                if COND_KEYWORDS.contains(&name.text) {
                    return Self::error_at(
                        pos,
                        0,
                        format!("'{}' is a keyword: a boolean needs another name", name.text),
                    );
                }
                let value = match self.word("true or false")?.text {
                    "true" | "TRUE" => true,
                    "false" | "FALSE" => false,
                    other => {
                        return Self::error_at(
                            pos,
                            0,
                            format!(
                                "bool {}: expected true or false, found '{other}'",
                                name.text
                            ),
                        )
                    }
                };
                if self.bools.insert(name.text.to_string(), value).is_some() {
                    return Self::error_at(pos, 0, format!("a second bool {}", name.text));
                }
            }
            "if" => return self.if_statement(pos),
            "fs_use_xattr" | "fs_use_task" | "fs_use_trans" => {
                let how = match keyword.text {
                    "fs_use_xattr" => FsUse::Xattr,
                    "fs_use_task" => FsUse::Task,
                    _ => FsUse::Trans,
                };
                let fs = self.fs_name()?;
                if self.fs_uses.iter().any(|(f, _, _)| *f == fs) {
                    return Self::error_at(
                        pos,
                        0,
                        format!("a second fs_use statement for file system {fs}"),
                    );
                }
                let ctx = self.context()?;
                self.fs_uses.push((fs, how, ctx));
            }
            // `genfscon FS PATH [-TYPE] CONTEXT`, with no `;`.
            "genfscon" => return self.genfscon(pos),
            "portcon" | "netifcon" | "nodecon" | "allowxperm" | "typebounds" | "default_user"
            | "default_role" | "default_type" | "default_range" | "handleunknown" | "mls" => {
                return Err(Error {
                    pos,
                    message: format!("'{}': not supported by mlte", keyword.text),
                });
            }
            // `validatetrans CLASSES EXPR;`: `1` is the old context, `2`
            // the new one, `u3`/`r3`/`t3` the task's; `mlsvalidatetrans`
            // may test levels too.
            "validatetrans" | "mlsvalidatetrans" => {
                let classes = self.class_set()?;
                let pos = self.pos();
                let mut ops = Vec::new();
                self.without_levels = keyword.text == "validatetrans";
                self.with_third = true;
                let parsed = self.expr(&mut ops);
                self.with_third = false;
                parsed?;
                for class in &classes {
                    match *class {
                        ClassRef::Mlte(class) => {
                            self.validatetrans.push((class, ops.clone(), pos));
                        }
                        ClassRef::Other => self.policy.left_out += 1,
                    }
                }
            }
            // `constrain` is `mlsconstrain` without levels, as SELinux's:
            // both kinds apply to the class alike.
            "mlsconstrain" | "constrain" => {
                let classes = self.class_set()?;
                let names = self.perm_names()?;
                let by_class = self.perms_of(&classes, &names)?;
                let pos = self.pos();
                let mut ops = Vec::new();
                self.without_levels = keyword.text == "constrain";
                self.expr(&mut ops)?;
                for (class, perms) in by_class {
                    self.constraints.push((class, perms, ops.clone(), pos));
                }
            }
            other => {
                return Err(Error {
                    pos,
                    message: format!(
                        "unknown statement '{other}': expected type, attribute, \
                         typeattribute, typealias, sensitivity, category, level, allow, \
                         type_transition, type_change, type_member, range_transition, role, \
                         user, role_transition, mlsconstrain or sid"
                    ),
                })
            }
        }
        self.expect(";")
    }
}

impl Parser<'_> {
    /// The types of `member` (`source` for `self`).
    fn types_of(&self, member: Member, source: u32) -> Vec<u32> {
        match member {
            Member::Type(ty) => vec![ty],
            Member::Attribute(a) => self
                .attributes
                .get(a)
                .map_or_else(Vec::new, |set| set.iter().copied().collect()),
            Member::SelfType => vec![source],
        }
    }

    /// The types of `set` for source type `source`: its members' but the
    /// excluded ones', and `source` itself for `self`, which exclusions do
    /// not touch (checkpolicy keeps `self` apart from the type set:
    /// `{ a -b self }` for source `b` still gives `b`).
    fn expand(&self, set: &TypeSet, source: u32) -> BTreeSet<u32> {
        let mut out: BTreeSet<u32> = set
            .members
            .iter()
            .filter(|m| !matches!(m, Member::SelfType))
            .flat_map(|&m| self.types_of(m, source))
            .collect();
        for m in &set.excluded {
            for ty in self.types_of(*m, source) {
                out.remove(&ty);
            }
        }
        if set.members.iter().any(|m| matches!(m, Member::SelfType)) {
            out.insert(source);
        }
        out
    }

    /// Once every statement is read, as checkpolicy does: the rules and
    /// constraints with their attributes expanded to the attributes' types
    /// (a `typeattribute` may follow a rule that names the attribute).
    fn finish(&mut self) -> Result<(), Error> {
        let rules = core::mem::take(&mut self.rules);
        for rule in &rules {
            match *rule {
                Rule::Av {
                    kind,
                    ref sources,
                    ref targets,
                    class,
                    perms,
                    cond,
                    ..
                } => {
                    // A neverallow is checked below, once every allow is
                    // expanded.
                    if kind == AvKind::Neverallow {
                        continue;
                    }
                    let mut expanded = Vec::new();
                    for source in self.expand(sources, 0) {
                        for target in self.expand(targets, source) {
                            expanded.push((source, target, class));
                        }
                    }
                    if let Some((cond, in_else)) = cond {
                        let kind = match kind {
                            AvKind::Allow => COND_KIND_ALLOW,
                            AvKind::Auditallow => COND_KIND_AUDITALLOW,
                            AvKind::Dontaudit | AvKind::Neverallow => COND_KIND_DONTAUDIT,
                        };
                        let flags = kind | u32::from(in_else) << 8;
                        for (s, t, c) in expanded {
                            *self
                                .policy
                                .cond_rules
                                .entry((s, t, c, cond, flags))
                                .or_insert(0) |= perms;
                        }
                        continue;
                    }
                    let table = match kind {
                        AvKind::Allow => &mut self.policy.allow,
                        AvKind::Auditallow => &mut self.policy.auditallow,
                        AvKind::Dontaudit | AvKind::Neverallow => &mut self.policy.dontaudit,
                    };
                    for key in expanded {
                        *table.entry(key).or_insert(0) |= perms;
                    }
                }
                Rule::Type {
                    ref kind,
                    ref sources,
                    ref targets,
                    class,
                    new,
                    pos,
                } => self.expand_type_rule(kind, sources, targets, class, new, pos)?,
                Rule::Range {
                    ref sources,
                    ref targets,
                    ref classes,
                    range,
                    pos,
                } => {
                    for source in self.expand(sources, 0) {
                        for target in self.expand(targets, source) {
                            for &class in classes {
                                let key = (source, target, class);
                                let old = self.policy.range_transitions.insert(key, range);
                                if old.is_some_and(|old| old != range) {
                                    return Err(Error {
                                        pos,
                                        message: format!(
                                            "a second range_transition for {} : {} with \
                                             another range",
                                            self.names_of(source, target),
                                            CLASSES[usize::from(class)].0
                                        ),
                                    });
                                }
                            }
                        }
                    }
                }
            }
        }
        for rule in &rules {
            if let Rule::Av {
                kind: AvKind::Neverallow,
                ref sources,
                ref targets,
                class,
                perms,
                pos,
                ..
            } = *rule
            {
                self.check_neverallow(sources, targets, class, perms, pos)?;
            }
        }
        self.finish_roles_and_users()?;
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let limits = super::constraint::Limits {
            users: count(self.policy.users.len()),
            roles: count(self.policy.roles.len()),
            types: count(self.policy.types.len()),
        };
        for (class, perms, ops, pos) in core::mem::take(&mut self.constraints) {
            let ops = self.expand_constraint(&ops, pos)?;
            let bytes: Vec<u8> = ops.iter().flat_map(|w| w.to_le_bytes()).collect();
            if let Err((_, why)) = super::constraint::check(&bytes, &limits, false) {
                return Self::error_at(pos, 0, format!("expression refused: {why}"));
            }
            self.policy.constraints.push((class, perms, ops));
        }
        for (class, ops, pos) in core::mem::take(&mut self.validatetrans) {
            let ops = self.expand_constraint(&ops, pos)?;
            let bytes: Vec<u8> = ops.iter().flat_map(|w| w.to_le_bytes()).collect();
            if let Err((_, why)) = super::constraint::check(&bytes, &limits, true) {
                return Self::error_at(pos, 0, format!("expression refused: {why}"));
            }
            self.policy.validatetrans.push((class, ops));
        }
        self.finish_conds()
    }

    /// Booleans get their ids (their places in name order) and the
    /// conditions their compiled form, checked as the kernel checks it.
    fn finish_conds(&mut self) -> Result<(), Error> {
        self.policy.bools = self.bools.iter().map(|(n, &v)| (n.clone(), v)).collect();
        let id = |name: &str| {
            self.bools
                .keys()
                .position(|n| n == name)
                .and_then(|i| u32::try_from(i).ok())
                .unwrap_or(u32::MAX)
        };
        let bools = u32::try_from(self.bools.len()).unwrap_or(u32::MAX);
        for (words, pos) in &self.conds {
            let mut ops = Vec::with_capacity(words.len());
            for w in words {
                ops.push(match w {
                    CondWord::Op(op) => *op,
                    CondWord::Bool(name, at) => {
                        if !self.bools.contains_key(name) {
                            return Self::error_at(
                                *at,
                                0,
                                format!(
                                    "unknown boolean '{name}': declare it with 'bool {name} false;'"
                                ),
                            );
                        }
                        COND_BOOL | id(name) << 8
                    }
                });
            }
            if ops.len() > COND_WORDS {
                return Self::error_at(
                    *pos,
                    0,
                    format!(
                        "a condition of {} operations: at most {COND_WORDS} (not supported by mlte)",
                        ops.len()
                    ),
                );
            }
            let bytes: Vec<u8> = ops.iter().flat_map(|w| w.to_le_bytes()).collect();
            if let Err((_, why)) = super::booleans::check(&bytes, bools) {
                return Self::error_at(*pos, 0, format!("condition refused: {why}"));
            }
            self.policy.conds.push(ops);
        }
        Ok(())
    }

    /// "SOURCE TARGET", by name, for messages.
    fn names_of(&self, source: u32, target: u32) -> String {
        let name = |ty: u32| {
            self.policy
                .types
                .get(ty as usize)
                .map_or("?", String::as_str)
        };
        format!("{} {}", name(source), name(target))
    }

    /// A `type_transition`, `type_change` or `type_member` expanded into
    /// its table: a second rule for one (source, target, class) that gives
    /// another type is refused, and for a name-based `type_transition` any
    /// second rule (checkpolicy's "duplicate filename transition").
    fn expand_type_rule(
        &mut self,
        kind: &TypeRule,
        sources: &TypeSet,
        targets: &TypeSet,
        class: u8,
        new: u32,
        pos: Pos,
    ) -> Result<(), Error> {
        for source in self.expand(sources, 0) {
            for target in self.expand(targets, source) {
                let key = (source, target, class);
                let old = match kind {
                    TypeRule::Transition => self.policy.transitions.insert(key, new),
                    TypeRule::Change => self.policy.type_changes.insert(key, new),
                    TypeRule::Member => self.policy.type_members.insert(key, new),
                    TypeRule::Named(name) => {
                        let key = (source, target, class, name.clone());
                        // Any second one, as checkpolicy.
                        self.policy
                            .name_transitions
                            .insert(key, new)
                            .map(|_| u32::MAX)
                    }
                };
                let Some(old) = old.filter(|&old| old != new) else {
                    continue;
                };
                let named = match kind {
                    TypeRule::Named(name) => format!(" \"{}\"", String::from_utf8_lossy(name)),
                    _ => String::new(),
                };
                let first = self
                    .policy
                    .types
                    .get(old as usize)
                    .map_or(String::new(), |t| format!(" (the first gives {t})"));
                return Err(Error {
                    pos,
                    message: format!(
                        "a second {} for {} : {}{named}{first}",
                        kind.keyword(),
                        self.names_of(source, target),
                        CLASSES[usize::from(class)].0,
                    ),
                });
            }
        }
        Ok(())
    }

    /// Once every statement is read: roles and users get their ids (their
    /// places in name order), with their types, roles, transitions and
    /// allows; the `sid` contexts are resolved and must be valid.
    fn finish_roles_and_users(&mut self) -> Result<(), Error> {
        let roles: Vec<String> = self.roles.keys().cloned().collect();
        let role_id = |name: &str| {
            roles
                .binary_search_by(|r| r.as_str().cmp(name))
                .ok()
                .and_then(|i| u32::try_from(i).ok())
                .unwrap_or(u32::MAX)
        };
        for (name, sets) in &self.roles {
            for set in sets {
                for ty in self.expand(set, 0) {
                    self.policy.role_types.insert((role_id(name), ty));
                }
            }
        }
        for (u, (name, decl)) in self.users.iter().enumerate() {
            let u = u32::try_from(u).unwrap_or(u32::MAX);
            self.policy.users.push((name.clone(), decl.low, decl.high));
            for role in &decl.roles {
                self.policy.user_roles.insert((u, role_id(role)));
            }
        }
        for t in &self.role_transitions {
            let new = role_id(&t.new);
            for role in &t.roles {
                for ty in self.expand(&t.types, 0) {
                    let key = (role_id(role), ty, t.class);
                    // As checkpolicy: any second rule for a role, type
                    // and class, even one that gives the same role.
                    if let Some(&old) = self.policy.role_transitions.get(&key) {
                        return Self::error_at(
                            t.pos,
                            0,
                            format!(
                                "a second role_transition for {role} {} : {} (the first gives {})",
                                self.policy.types[ty as usize],
                                CLASSES[usize::from(t.class)].0,
                                roles[old as usize]
                            ),
                        );
                    }
                    self.policy.role_transitions.insert(key, new);
                }
            }
        }
        for (from, to) in &self.role_allows {
            for f in from {
                for t in to {
                    self.policy.role_allows.insert((role_id(f), role_id(t)));
                }
            }
        }
        self.policy.roles = roles.clone();
        for i in 0..SIDS.len() {
            let Some(text) = self.sid_contexts[i].clone() else {
                continue;
            };
            self.policy.sids[i] = Some(self.resolve_context(&text, &role_id)?);
        }
        // A policy without `sid security` has unlabeled's context there, as
        // SELinux's SID table gives for an initial SID the policy leaves out
        // (`sidtab_search_core()`).
        let (security, unlabeled) = (
            InitialSid::Security as usize,
            InitialSid::Unlabeled as usize,
        );
        if self.policy.sids[security].is_none() {
            self.policy.sids[security] = self.policy.sids[unlabeled];
        }
        self.finish_fs_labelling(&role_id)
    }

    /// A context as written, with its user's and role's ids, checked valid
    /// under the policy (as checkpolicy's `parse_security_context()`).
    fn resolve_context(
        &self,
        text: &TextContext,
        role_id: &impl Fn(&str) -> u32,
    ) -> Result<Context, Error> {
        let user = self
            .policy
            .users
            .iter()
            .position(|(n, _, _)| *n == text.user)
            .and_then(|u| u32::try_from(u).ok())
            .unwrap_or(u32::MAX);
        let ctx = Context {
            user,
            role: role_id(&text.role),
            ty: text.ty,
            low: text.low,
            high: text.high,
        };
        if let Err(e) = self.policy.validate(&ctx) {
            return Self::error_at(
                text.pos,
                0,
                format!(
                    "invalid context {}:{}:{}: {e}",
                    text.user, text.role, self.policy.types[text.ty as usize]
                ),
            );
        }
        Ok(ctx)
    }

    /// The `fs_use_*` and `genfscon` statements, their contexts resolved,
    /// the `genfscon` rules in the kernel's order.
    fn finish_fs_labelling(&mut self, role_id: &impl Fn(&str) -> u32) -> Result<(), Error> {
        let mut fs_uses = BTreeMap::new();
        for (fs, how, text) in &self.fs_uses {
            let ctx = self.resolve_context(text, role_id)?;
            fs_uses.insert(fs.as_bytes().to_vec(), (*how, ctx));
        }
        let mut genfs = Vec::new();
        for (fs, path, mode, text) in &self.genfs {
            let ctx = self.resolve_context(text, role_id)?;
            genfs.push((fs.as_bytes().to_vec(), path.clone(), *mode, ctx));
        }
        // The kernel tries longer paths first (`genfs_read()`); of one
        // length, at most one rule matches a path of a file type, so their
        // order is free: the compiled form sorts them by path and type.
        genfs.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then(b.1.len().cmp(&a.1.len()))
                .then(a.1.cmp(&b.1))
                .then(a.2.cmp(&b.2))
        });
        self.policy.fs_uses = fs_uses;
        self.policy.genfs = genfs;
        Ok(())
    }

    /// A file system type's name, as `fs_use_*` and `genfscon` take it:
    /// 1 to [`MAX_FS_NAME`] bytes of letters, digits, `_`, `.` and `-`.
    fn fs_name(&mut self) -> Result<String, Error> {
        let t = self.word("a file system type's name")?;
        let ok = (1..=MAX_FS_NAME).contains(&t.text.len())
            && t.text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b));
        if !ok {
            return Self::error_at(
                t.pos,
                0,
                format!(
                    "file system type '{}': 1 to {MAX_FS_NAME} letters, digits, '_', '.' or '-'",
                    t.text
                ),
            );
        }
        Ok(t.text.to_string())
    }

    /// `genfscon FS PATH [-TYPE] CONTEXT` (after the keyword, at `pos`):
    /// PATH starts with `/`; TYPE is checkpolicy's `b c d p l s` or `-`
    /// (a regular file). Two rules for one path of one file system are
    /// refused unless each names another file type, as checkpolicy's
    /// "duplicate entry for genfs entry".
    fn genfscon(&mut self, pos: Pos) -> Result<(), Error> {
        let fs = self.fs_name()?;
        let path_token = self.word("a path starting with '/'")?;
        let path = path_token.text;
        if !path.starts_with('/') || path.len() > MAX_GENFS_PATH {
            return Self::error_at(
                path_token.pos,
                0,
                format!("genfscon path '{path}': 1 to {MAX_GENFS_PATH} bytes starting with '/'"),
            );
        }
        let mut mode = 0;
        if self.peek_is("-") {
            self.next += 1;
            let spec_pos = self.pos();
            let spec = if self.peek_is("-") {
                self.next += 1;
                "-"
            } else {
                self.word("a file type (b, c, d, p, l, s or -)")?.text
            };
            let Some(&(_, m)) = GENFS_TYPES.iter().find(|(n, _)| *n == spec) else {
                return Self::error_at(
                    spec_pos,
                    0,
                    format!("genfscon file type '-{spec}': expected -b, -c, -d, -p, -l, -s or --"),
                );
            };
            mode = m;
        }
        let ctx = self.context()?;
        let clash = self.genfs.iter().any(|(f, p, m, _)| {
            *f == fs && p == path.as_bytes() && (*m == 0 || mode == 0 || *m == mode)
        });
        if clash {
            return Self::error_at(pos, 0, format!("a second genfscon rule for ({fs}, {path})"));
        }
        self.genfs.push((fs, path.as_bytes().to_vec(), mode, ctx));
        Ok(())
    }

    /// A `neverallow` (at `pos`): no expanded `allow` may grant any of
    /// `perms` of `class` to a source of `sources` on a target of
    /// `targets`, as checkpolicy checks at compile time.
    fn check_neverallow(
        &self,
        sources: &TypeSet,
        targets: &TypeSet,
        class: u8,
        perms: u32,
        pos: Pos,
    ) -> Result<(), Error> {
        let (class_name, names) = CLASSES[usize::from(class)];
        for source in self.expand(sources, 0) {
            for target in self.expand(targets, source) {
                // Conditional allows count whatever the booleans, as
                // checkpolicy's.
                let conditional = self
                    .policy
                    .cond_rules
                    .range(
                        (source, target, class, 0, 0)..=(source, target, class, u32::MAX, u32::MAX),
                    )
                    .filter(|((.., flags), _)| flags & 0xff == COND_KIND_ALLOW)
                    .fold(0, |acc, (_, &p)| acc | p);
                let granted = (self
                    .policy
                    .allow
                    .get(&(source, target, class))
                    .copied()
                    .unwrap_or(0)
                    | conditional)
                    & perms;
                if granted != 0 {
                    let list: Vec<&str> = names
                        .iter()
                        .enumerate()
                        .filter(|(bit, _)| granted & 1 << bit != 0)
                        .map(|(_, n)| *n)
                        .collect();
                    return Err(Error {
                        pos,
                        message: format!(
                            "neverallow violated: allow {} {} : {class_name} {{ {} }}",
                            self.policy.types[source as usize],
                            self.policy.types[target as usize],
                            list.join(" ")
                        ),
                    });
                }
            }
        }
        Ok(())
    }

    /// `ops` with each attribute test (`t1 == ATTR`) replaced by the tests
    /// of its types joined with `or` (`and` for `!=`). An attribute with no
    /// type is never equal: `t == x and t != x` for any type x.
    fn expand_constraint(&self, ops: &[u32], pos: Pos) -> Result<Vec<u32>, Error> {
        let mut out = Vec::with_capacity(ops.len());
        let mut words = ops.iter().copied();
        while let Some(op) = words.next() {
            if op & 0xff != OP_NAME {
                out.push(op);
                continue;
            }
            let Some(arg) = words.next() else {
                out.push(op);
                break;
            };
            if arg & NAME_MARK == 0 {
                out.extend([op, arg]);
                continue;
            }
            let Some((name, name_pos, attr)) =
                self.constraint_names.get((arg & !NAME_MARK) as usize)
            else {
                return Self::error_at(pos, 0, "a constraint name lost".to_string());
            };
            if *attr != ATTR_TYPE {
                let (names, what) = if *attr == ATTR_ROLE {
                    (self.policy.roles.clone(), "role")
                } else {
                    let users = self.policy.users.iter().map(|(n, _, _)| n.clone());
                    (users.collect::<Vec<_>>(), "user")
                };
                let Some(id) = names.iter().position(|n| n == name) else {
                    return Err(Error {
                        pos: *name_pos,
                        message: format!("unknown {what} '{name}'"),
                    });
                };
                out.extend([op, u32::try_from(id).unwrap_or(u32::MAX)]);
                continue;
            }
            let members = if let Some(&a) = self.attribute_ids.get(name) {
                self.types_of(Member::Attribute(a), 0)
            } else if let Some(&ty) = self.type_ids.get(name) {
                vec![ty]
            } else {
                return Err(Error {
                    pos: *name_pos,
                    message: format!(
                        "unknown type or attribute '{name}': declare it with 'type {name};' or \
                         'attribute {name};'"
                    ),
                });
            };
            let negated = op & 1 << 9 != 0;
            if members.len() > MAX_CONSTRAINT_ATTRIBUTE {
                return Err(Error {
                    pos: *name_pos,
                    message: format!(
                        "attribute '{name}' has {} types: a constraint may test at most \
                         {MAX_CONSTRAINT_ATTRIBUTE} types of an attribute (not supported by mlte)",
                        members.len()
                    ),
                });
            }
            if members.is_empty() {
                let join = if negated { OP_OR } else { OP_AND };
                out.extend([op & !(1 << 9), 0, op | 1 << 9, 0, join]);
                continue;
            }
            let join = if negated { OP_AND } else { OP_OR };
            for (i, ty) in members.into_iter().enumerate() {
                out.extend([op, ty]);
                if i > 0 {
                    out.push(join);
                }
            }
        }
        Ok(out)
    }
}

impl Policy {
    /// Whether `c` is a valid context of this policy, as the kernel's
    /// `Compiled::validate` (and SELinux's `policydb_context_isvalid()`).
    pub(crate) fn validate(&self, c: &Context) -> Result<(), ContextError> {
        let user = self
            .users
            .get(c.user as usize)
            .ok_or(ContextError::UnknownUser)?;
        let role = self
            .roles
            .get(c.role as usize)
            .ok_or(ContextError::UnknownRole)?;
        if c.ty as usize >= self.types.len() {
            return Err(ContextError::UnknownType);
        }
        let object = role.as_bytes() == OBJECT_R;
        if !object && !self.role_types.contains(&(c.role, c.ty)) {
            return Err(ContextError::RoleWithoutType);
        }
        if !object && !self.user_roles.contains(&(c.user, c.role)) {
            return Err(ContextError::UserWithoutRole);
        }
        let allowed = |l: &Level| {
            self.levels
                .get(&l.sensitivity)
                .is_some_and(|cats| cats.contains(&l.categories))
        };
        if !allowed(&c.low) || !allowed(&c.high) {
            return Err(ContextError::LevelNotAllowed);
        }
        if !c.high.dominates(&c.low) {
            return Err(ContextError::HighBelowLow);
        }
        let within = c.low.dominates(&user.1) && user.2.dominates(&c.high);
        if !object && !within {
            return Err(ContextError::OutsideUserRange);
        }
        Ok(())
    }

    /// The compiled form (`compiled.rs`), or why there is none.
    pub(crate) fn compile(&self) -> Result<Vec<u8>, String> {
        use super::compiled::{
            push_context, push_level, MAGIC, MAX_FS_NAME, MAX_GENFS_PATH, MAX_NAME,
            MAX_OBJECT_NAME, MAX_ROLES, MAX_RULES, MAX_TYPES, MAX_USERS, VERSION,
        };
        let types = u32::try_from(self.types.len()).unwrap_or(u32::MAX);
        if types == 0 || types > MAX_TYPES {
            return Err(format!("{types} types: a policy has 1 to {MAX_TYPES}"));
        }
        if self.levels.is_empty() {
            return Err("no level statement: a policy needs at least one".into());
        }
        if self.users.is_empty() {
            return Err("no user statement: a policy needs at least one".into());
        }
        if self.roles.len() > MAX_ROLES as usize || self.users.len() > MAX_USERS as usize {
            return Err(format!(
                "{} roles and {} users: a policy has at most {MAX_ROLES} of each",
                self.roles.len(),
                self.users.len()
            ));
        }
        let mut sids = Vec::new();
        for (i, (_, name)) in SIDS.iter().enumerate() {
            match self.sids[i] {
                Some(ctx) => sids.push(ctx),
                None => return Err(format!("no 'sid {name}' statement: a policy needs one")),
            }
        }
        let classes = CLASSES.len();
        let mut out = MAGIC.to_vec();
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        // A BTreeMap iterates in key order: the rules come sorted and
        // unique; those that allow nothing are left out.
        let rules: Vec<_> = self.allow.iter().filter(|(_, &bits)| bits != 0).collect();
        if count(rules.len()) > MAX_RULES {
            return Err(format!(
                "{} rules (source, target, class triples): a policy has at most {MAX_RULES}",
                rules.len()
            ));
        }
        if count(self.dontaudit.len()) > MAX_RULES {
            return Err(format!(
                "{} dontaudit rules: a policy has at most {MAX_RULES}",
                self.dontaudit.len()
            ));
        }
        for v in [
            VERSION,
            types,
            classes as u32,
            count(rules.len()),
            count(self.transitions.len()),
            count(self.levels.len()),
            count(self.constraints.len()),
            count(self.dontaudit.len()),
            count(self.roles.len()),
            count(self.users.len()),
            count(self.role_types.len()),
            count(self.user_roles.len()),
            count(self.role_transitions.len()),
            count(self.role_allows.len()),
            count(self.auditallow.len()),
            count(self.permissive.len()),
            count(self.validatetrans.len()),
            count(self.bools.len()),
            count(self.conds.len()),
            count(self.cond_rules.len()),
            count(self.type_changes.len()),
            count(self.type_members.len()),
            count(self.range_transitions.len()),
            count(self.name_transitions.len()),
            count(self.fs_uses.len()),
            count(self.genfs.len()),
            self.policycaps,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for table in [
            self.role_types.len(),
            self.user_roles.len(),
            self.role_transitions.len(),
            self.role_allows.len(),
            self.auditallow.len(),
            self.type_changes.len(),
            self.type_members.len(),
            self.range_transitions.len(),
            self.name_transitions.len(),
            self.fs_uses.len(),
            self.genfs.len(),
        ] {
            if count(table) > MAX_RULES {
                return Err(format!(
                    "{table} entries of one table (role, user or auditallow): a policy has at most {MAX_RULES}"
                ));
            }
        }
        let push_name = |out: &mut Vec<u8>, what: &str, name: &str| {
            let ok = (1..=MAX_NAME as usize).contains(&name.len())
                && name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
            if !ok {
                return Err(format!(
                    "{what} name '{name}': 1 to {MAX_NAME} characters of a-z, 0-9 and _"
                ));
            }
            let mut slot = [0u8; MAX_NAME as usize];
            slot[..name.len()].copy_from_slice(name.as_bytes());
            out.extend_from_slice(&slot);
            Ok(())
        };
        for name in &self.types {
            push_name(&mut out, "type", name)?;
        }
        let mut by_name: Vec<u32> = (0..types).collect();
        by_name.sort_by(|&a, &b| self.types[a as usize].cmp(&self.types[b as usize]));
        for ty in by_name {
            out.extend_from_slice(&ty.to_le_bytes());
        }
        for name in &self.roles {
            push_name(&mut out, "role", name)?;
        }
        for (name, _, _) in &self.users {
            push_name(&mut out, "user", name)?;
        }
        for (_, low, high) in &self.users {
            push_level(&mut out, low);
            push_level(&mut out, high);
        }
        for ctx in &sids {
            push_context(&mut out, ctx);
        }
        // A BTreeMap iterates in key order: ascending sensitivities.
        for (&sensitivity, &categories) in &self.levels {
            push_level(
                &mut out,
                &Level {
                    sensitivity,
                    categories,
                },
            );
        }
        for (&(s, t, c), &bits) in rules {
            for v in [s, t, u32::from(c), bits] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        // Sorted and unique, as the rules; never 0 (perms_of gives no
        // empty set).
        for (&(s, t, c), &bits) in &self.dontaudit {
            for v in [s, t, u32::from(c), bits] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        // A BTreeMap iterates in key order: sorted and unique.
        for (&(s, t, c), &new) in &self.transitions {
            for v in [s, t, u32::from(c), new] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        for pairs in [&self.role_types, &self.user_roles] {
            for &(a, b) in pairs {
                out.extend_from_slice(&a.to_le_bytes());
                out.extend_from_slice(&b.to_le_bytes());
            }
        }
        for (&(r, t, c), &new) in &self.role_transitions {
            for v in [r, t, u32::from(c), new] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        for &(a, b) in &self.role_allows {
            out.extend_from_slice(&a.to_le_bytes());
            out.extend_from_slice(&b.to_le_bytes());
        }
        // Sorted and unique, as the rules.
        for (&(s, t, c), &bits) in &self.auditallow {
            for v in [s, t, u32::from(c), bits] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        for &ty in &self.permissive {
            out.extend_from_slice(&ty.to_le_bytes());
        }
        if self.bools.len() > MAX_BOOLS as usize || self.conds.len() > MAX_CONDS as usize {
            return Err(format!(
                "{} booleans and {} if statements: a policy has at most {MAX_BOOLS} and \
                 {MAX_CONDS}",
                self.bools.len(),
                self.conds.len()
            ));
        }
        if count(self.cond_rules.len()) > MAX_RULES {
            return Err(format!(
                "{} conditional rules: a policy has at most {MAX_RULES}",
                self.cond_rules.len()
            ));
        }
        // Sorted by name: the ids.
        for (name, _) in &self.bools {
            push_name(&mut out, "boolean", name)?;
        }
        for &(_, value) in &self.bools {
            out.extend_from_slice(&u32::from(value).to_le_bytes());
        }
        for ops in &self.conds {
            out.extend_from_slice(&count(ops.len()).to_le_bytes());
            for k in 0..COND_WORDS {
                out.extend_from_slice(&ops.get(k).copied().unwrap_or(0).to_le_bytes());
            }
        }
        // A BTreeMap iterates in key order: sorted and unique.
        for (&(s, t, c, cond, flags), &perms) in &self.cond_rules {
            for v in [s, t, u32::from(c), perms, cond, flags] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        // Constraints by class; in the order written within a class.
        let mut constraints: Vec<_> = self.constraints.iter().collect();
        constraints.sort_by_key(|(class, _, _)| *class);
        for (class, perms, ops) in constraints {
            for v in [u32::from(*class), *perms, count(ops.len())] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            for w in ops {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        // Then the validatetrans programs, by class the same way.
        let mut validatetrans: Vec<_> = self.validatetrans.iter().collect();
        validatetrans.sort_by_key(|(class, _)| *class);
        for (class, ops) in validatetrans {
            for v in [u32::from(*class), count(ops.len())] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            for w in ops {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        // After the constraints. BTreeMaps iterate in key order: sorted and
        // unique; a name sorts as its bytes.
        for table in [&self.type_changes, &self.type_members] {
            for (&(s, t, c), &new) in table {
                for v in [s, t, u32::from(c), new] {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
        for (&(s, t, c), (low, high)) in &self.range_transitions {
            for v in [s, t, u32::from(c)] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            push_level(&mut out, low);
            push_level(&mut out, high);
        }
        for ((s, t, c, name), &new) in &self.name_transitions {
            for v in [*s, *t, u32::from(*c), new] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            let mut slot = [0u8; MAX_OBJECT_NAME + 1];
            let Some(to) = slot.get_mut(..name.len()) else {
                return Err(format!("a new object's name of {} bytes", name.len()));
            };
            to.copy_from_slice(name);
            out.extend_from_slice(&slot);
        }
        // File systems: by name (a BTreeMap iterates in key order), then
        // the genfscon rules in their order.
        let push_slot = |out: &mut Vec<u8>, bytes: &[u8], max: usize| {
            let mut slot = vec![0u8; max + 1];
            let Some(to) = slot.get_mut(..bytes.len()) else {
                return Err(format!(
                    "'{}': longer than {max} bytes",
                    String::from_utf8_lossy(bytes)
                ));
            };
            to.copy_from_slice(bytes);
            out.extend_from_slice(&slot);
            Ok(())
        };
        for (fs, (how, ctx)) in &self.fs_uses {
            push_slot(&mut out, fs, MAX_FS_NAME)?;
            out.extend_from_slice(&(*how as u32).to_le_bytes());
            push_context(&mut out, ctx);
        }
        for (fs, path, mode, ctx) in &self.genfs {
            push_slot(&mut out, fs, MAX_FS_NAME)?;
            push_slot(&mut out, path, MAX_GENFS_PATH)?;
            out.extend_from_slice(&mode.to_le_bytes());
            push_context(&mut out, ctx);
        }
        Ok(out)
    }
}

/// Parses a policy text.
pub(crate) fn parse(text: &str) -> Result<Policy, Error> {
    let line_count = u32::try_from(text.lines().count()).unwrap_or(u32::MAX);
    let mut p = Parser {
        tokens: tokens(text)?,
        next: 0,
        end: Pos {
            line: line_count.max(1),
            col: u32::try_from(text.lines().last().map_or(0, str::len) + 1).unwrap_or(u32::MAX),
        },
        policy: Policy::default(),
        type_ids: BTreeMap::new(),
        attribute_ids: BTreeMap::new(),
        attributes: Vec::new(),
        rules: Vec::new(),
        constraints: Vec::new(),
        constraint_names: Vec::new(),
        declared: BTreeMap::new(),
        commons: BTreeMap::new(),
        sid_names: BTreeSet::new(),
        sid_order: Vec::new(),
        roles: BTreeMap::from([(String::from_utf8_lossy(OBJECT_R).into_owned(), Vec::new())]),
        users: BTreeMap::new(),
        role_transitions: Vec::new(),
        role_allows: Vec::new(),
        sid_contexts: [None, None, None, None],
        without_levels: false,
        with_third: false,
        validatetrans: Vec::new(),
        bools: BTreeMap::new(),
        conds: Vec::new(),
        cond: None,
        depth: 0,
        fs_uses: Vec::new(),
        genfs: Vec::new(),
    };
    while p.next < p.tokens.len() {
        p.statement()?;
    }
    p.finish()?;
    Ok(p.policy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mlte::booleans::CondValues;

    const GOOD: &str = "\
# A small policy.
sensitivity s0;
sensitivity s1;
category c0;
type init_t;
type user_t;
type etc_t;
type bin_t;
allow user_t etc_t : file { read open getattr };
allow user_t etc_t : file map;
allow user_t self : process signal;
type_transition init_t bin_t : process user_t;
";

    /// Attributes, as checkpolicy reads them: declared, given types with
    /// `type T, A;` or `typeattribute` (also after a rule that names the
    /// attribute), expanded in rules, sets with `-` exclusions, aliases.
    #[test]
    fn attributes_and_aliases_expand_as_checkpolicy_does() {
        let text = "\
sensitivity s0; level s0;
attribute domain; attribute files; attribute none;
type init_t, domain; type user_t alias { luser_t olduser_t }, domain;
type etc_t, files; type bin_t alias exe_t;
allow domain files : file read;
allow domain { files bin_t -etc_t } : file write;
allow { domain -init_t } self : process signal;
type_transition domain exe_t : process user_t;
typeattribute bin_t files;
typealias etc_t alias conf_t;
allow luser_t conf_t : dir search;
allow none domain : file open;
mlsconstrain file read t1 == domain or t2 != files;
mlsconstrain file write t2 == none;
mlsconstrain file open t2 != none;
user u roles object_r level s0 range s0; sid kernel u:object_r:init_t:s0; sid file u:object_r:etc_t:s0; sid unlabeled u:object_r:etc_t:s0;
";
        let p = parse(text).unwrap();
        let (init, user, etc, bin) = (0, 1, 2, 3);
        let bit = |name| crate::mlte::classes::perm(Class::File, name);
        let (read, write) = (bit("read"), bit("write"));
        let file = 0u8;
        // bin_t joined files after the rule: still expanded.
        for s in [init, user] {
            assert_eq!(
                p.allow[&(s, etc, file)],
                read,
                "etc_t excluded from the write rule"
            );
            assert_eq!(p.allow[&(s, bin, file)], read | write);
        }
        assert!(!p.allow.contains_key(&(init, init, 2)), "init_t taken out");
        assert!(p.allow.contains_key(&(user, user, 2)), "self per source");
        // Exclusions do not touch self, as in checkpolicy (found by the
        // equivalence test against SELinux).
        let own = parse("type a; type b;\nallow { a b } { b -b self } : file read;").unwrap();
        assert!(
            own.allow.contains_key(&(1, 1, 0)),
            "b on itself through self"
        );
        assert!(!own.allow.contains_key(&(0, 1, 0)), "b excluded for a");
        assert_eq!(p.transitions[&(init, bin, 2)], user);
        assert_eq!(p.transitions[&(user, bin, 2)], user);
        assert!(
            p.allow.contains_key(&(user, etc, 1)),
            "aliases name their type"
        );
        assert_eq!(
            p.allow.len(),
            4 + 1 + 1 + 0,
            "an empty attribute gives no rule"
        );
        // Constraints: an attribute is the 'or' of its types' tests; an
        // empty one never equals.
        let bytes = p.compile().unwrap();
        let checked = crate::mlte::compiled::Checked::new(&bytes[..]).unwrap();
        let c = checked.view();
        let ctx = |text: &str| crate::mlte::context::Context::parse(text.as_bytes(), &c).unwrap();
        let class = crate::mlte::classes::Class::File;
        let holds = |s: &str, o: &str, perm: u32| {
            c.denied(&ctx(s), &ctx(o), class, perm, &CondValues::NONE) == 0
        };
        assert!(
            holds("u:object_r:user_t:s0", "u:object_r:bin_t:s0", read),
            "t1 == domain"
        );
        assert!(
            !holds("u:object_r:user_t:s0", "u:object_r:bin_t:s0", write),
            "t2 == none never holds"
        );
        let open = 8u32;
        assert!(
            !holds("u:object_r:user_t:s0", "u:object_r:user_t:s0", open),
            "no rule"
        );
        for bad in [
            ("attribute a; attribute a;", "1:24: 'a' is already declared"),
            ("type a; attribute a;", "1:19: 'a' is already declared"),
            ("type a, nosuch;", "1:9: unknown attribute 'nosuch'"),
            (
                "attribute a; type t; allow t a:file read; typeattribute a t;",
                "1:57: 'a' is an attribute: a type is expected here",
            ),
            ("type a alias a;", "1:14: 'a' is already declared"),
            (
                "attribute d; type t; allow nosuch t:file read;",
                "1:28: unknown type or attribute 'nosuch'",
            ),
        ] {
            let err = parse(bad.0).unwrap_err().to_string();
            assert!(
                err.starts_with(bad.1),
                "{:?}: got '{err}', want '{}...'",
                bad.0,
                bad.1
            );
        }
        // An attribute too big for a constraint is refused, saying so.
        let mut big = String::from("sensitivity s0; level s0; attribute d;\n");
        for t in 0..30 {
            big += &format!("type t{t}, d;\n");
        }
        big += "mlsconstrain file read t1 == d;\nuser u roles object_r level s0 range s0; sid kernel u:object_r:t0:s0; sid file u:object_r:t0:s0; sid unlabeled u:object_r:t0:s0;\n";
        let err = parse(&big).unwrap_err().to_string();
        assert!(err.contains("attribute 'd' has 30 types"), "{err}");
    }

    /// A policy written as checkpolicy reads it: SELinux's declarations
    /// (classes, commons, initial SIDs), dominance, policy capabilities,
    /// constraints before the types they name, users and roles, SELinux
    /// contexts with ranges, class sets, and classes and permissions mlte
    /// does not mediate (left out). `checkpolicy -M` compiles the same file
    /// (`scripts/test.sh`).
    pub(crate) const SELINUX_FORM: &str = include_str!("../../tests/mlte/selinux-form.conf");

    #[test]
    fn selinux_form_compiles_and_means_the_same() {
        let p = parse(SELINUX_FORM).unwrap();
        let (kernel, user, etc) = (0, 1, 2);
        let perm = |class: usize, name: &str| {
            1u32 << CLASSES[class].1.iter().position(|p| *p == name).unwrap()
        };
        let file = perm(0, "read") | perm(0, "open") | perm(0, "getattr") | perm(0, "lock");
        assert_eq!(p.allow[&(kernel, etc, 0)], file);
        assert_eq!(p.allow[&(user, etc, 0)], file);
        assert_eq!(
            p.allow[&(user, etc, 1)],
            perm(1, "search") | perm(1, "getattr")
        );
        assert_eq!(p.allow.len(), 3, "anon_inode rules are left out");
        assert_eq!(p.left_out, 2, "the two rules that name anon_inode");
        assert_eq!(
            p.constraints.len(),
            2,
            "the file part of the first, and dir's"
        );
        // The kernel SID: its type and its low level.
        let k = p.sids[0].unwrap();
        assert_eq!(
            (k.ty, k.low.sensitivity, k.high.sensitivity),
            (kernel, 0, 1)
        );
        assert_eq!(
            (p.users.len(), p.roles.len()),
            (1, 2),
            "system_u; object_r, system_r"
        );
        let bytes = p.compile().unwrap();
        let checked = crate::mlte::compiled::Checked::new(&bytes[..]).unwrap();
        let c = checked.view();
        let ctx = |t: &str| crate::mlte::context::Context::parse(t.as_bytes(), &c).unwrap();
        let read = perm(0, "read");
        use crate::mlte::classes::Class;
        assert_eq!(
            c.denied(
                &ctx("system_u:system_r:user_t:s0"),
                &ctx("system_u:object_r:etc_t:s1"),
                Class::File,
                read,
                &CondValues::NONE
            ),
            read
        );
        assert_eq!(
            c.denied(
                &ctx("system_u:system_r:kernel_t:s0"),
                &ctx("system_u:object_r:etc_t:s1"),
                Class::File,
                read,
                &CondValues::NONE
            ),
            0,
            "trusted"
        );
        assert_eq!(
            c.denied(
                &ctx("system_u:system_r:user_t:s1"),
                &ctx("system_u:object_r:etc_t:s0"),
                Class::File,
                read,
                &CondValues::NONE
            ),
            0
        );
        for (text, want) in [
            (
                "mlsconstrain file read u3 == a;",
                "1:24: 'u3': not supported by mlte",
            ),
            (
                "type a;\ntypebounds a a;",
                "2:1: 'typebounds': not supported by mlte",
            ),
            (
                "portcon tcp 80 a:s0",
                "1:1: 'portcon': not supported by mlte",
            ),
            (
                "class a\nclass a inherits nosuch",
                "2:18: unknown common 'nosuch'",
            ),
            (
                "class b\ntype t;\nallow t t:c read;",
                "3:11: unknown class 'c'",
            ),
            (
                "class file { read }\ntype t;\nallow t t:file bogus;",
                "3:16: class file has no permission 'bogus'",
            ),
            (
                "sensitivity s0; sensitivity s1;\ndominance { s1 s0 }",
                "2:11: a dominance other than",
            ),
            (
                "sensitivity s0; level s0; type t;\nsid kernel u:r:t:s0",
                "2:12: unknown user 'u'",
            ),
        ] {
            let err = parse(text).unwrap_err().to_string();
            assert!(
                err.starts_with(want),
                "{text:?}: got '{err}', want '{want}...'"
            );
        }
    }

    /// `auditallow` is expanded as `allow`; `permissive` takes a declared
    /// type (an alias names its type), not an attribute.
    #[test]
    fn auditallow_and_permissive_statements() {
        let head = "sensitivity s0; level s0; attribute d; type a, d; type b alias bb;\n";
        let p = parse(&format!(
            "{head}auditallow d self : file {{ read write }};\npermissive bb;\n"
        ))
        .unwrap();
        use crate::mlte::classes::{perm, Class};
        let rw = perm(Class::File, "read") | perm(Class::File, "write");
        assert_eq!(p.auditallow.get(&(0, 0, 0)), Some(&rw));
        assert_eq!(p.auditallow.len(), 1);
        assert_eq!(p.permissive.iter().copied().collect::<Vec<_>>(), [1]);
        for (text, want) in [
            (
                "permissive d;",
                "2:12: 'd' is an attribute: a type is expected here",
            ),
            ("permissive nosuch;", "2:12: unknown type 'nosuch'"),
            ("permissive a", "2:13: expected ';'"),
            (
                "auditallow a b : file nosuch;",
                "2:23: class file has no permission 'nosuch'",
            ),
        ] {
            let err = parse(&format!("{head}{text}")).unwrap_err().to_string();
            assert!(err.starts_with(want), "{text}: got '{err}', want '{want}'");
        }
    }

    /// `validatetrans` takes `u3`/`r3`/`t3` name tests (names only) and no
    /// levels; `mlsvalidatetrans` levels too; no other statement takes
    /// `u3`. The compiled form answers `validate_transition`.
    #[test]
    fn validatetrans_statements() {
        let head = "sensitivity s0; sensitivity s1; level s0; level s1; type a; type b; type c;\n\
                    user u roles object_r level s0 range s0 - s1;\n\
                    sid kernel u:object_r:a:s0; sid file u:object_r:a:s0; sid unlabeled u:object_r:a:s0;\n";
        let p = parse(&format!(
            "{head}validatetrans {{ file dir }} (t1 == t2 or t3 == {{ c b }});\n\
             mlsvalidatetrans file (l1 eq l2 or u3 != u);\n"
        ))
        .unwrap();
        assert_eq!(p.validatetrans.len(), 3);
        let bytes = p.compile().unwrap();
        let checked = crate::mlte::compiled::Checked::new(&bytes[..]).unwrap();
        let v = checked.view();
        let ctx = |t: &str| Context::parse(t.as_bytes(), &v).unwrap();
        let (a0, b0, a1, c0) = (
            ctx("u:object_r:a:s0"),
            ctx("u:object_r:b:s0"),
            ctx("u:object_r:a:s1"),
            ctx("u:object_r:c:s0"),
        );
        use crate::mlte::classes::Class;
        assert!(v.validate_transition(&a0, &a0, &a0, Class::File));
        assert!(
            !v.validate_transition(&a0, &b0, &a0, Class::File),
            "t1 != t2, t3 a"
        );
        assert!(v.validate_transition(&a0, &b0, &c0, Class::Dir), "t3 c");
        assert!(!v.validate_transition(&a0, &a1, &a0, Class::File), "level");
        assert!(
            v.validate_transition(&a0, &a1, &a0, Class::Dir),
            "no mls one on dir"
        );
        assert!(v.validate_transition(&a0, &b0, &a0, Class::Process), "none");
        for (text, want) in [
            (
                "validatetrans file (l1 eq l2);",
                "4:21: 'l1': a level in validatetrans: use mlsvalidatetrans",
            ),
            (
                "validatetrans file (t3 == t1);",
                "4:27: t3 == t1: expected names",
            ),
            (
                "mlsconstrain file read (t3 == a);",
                "4:25: 't3': not supported by mlte (validatetrans only)",
            ),
            (
                "validatetrans file (t3 == nosuch);",
                "4:27: unknown type or attribute 'nosuch'",
            ),
        ] {
            let err = parse(&format!("{head}{text}")).unwrap_err().to_string();
            assert!(err.starts_with(want), "{text}: got '{err}', want '{want}'");
        }
    }

    /// `bool` and `if`/`else` with checkpolicy's precedence (`||` below
    /// `^` below `&&` below `!` below `==`/`!=`); rules under a condition
    /// follow it; a neverallow sees conditional allows.
    #[test]
    fn booleans_and_conditional_rules() {
        let head = "sensitivity s0; level s0; type a; type b;\n\
                    user u roles object_r level s0 range s0;\n\
                    sid kernel u:object_r:a:s0; sid file u:object_r:a:s0; sid unlabeled u:object_r:a:s0;\n\
                    bool x true; bool y false; bool z false;\n";
        let p = parse(&format!(
            "{head}if (!x == y || z && x ^ y) {{ allow a b : file read; auditallow a b : file read; }}\n\
             else {{ allow a b : file write; dontaudit a b : file getattr; }}\n"
        ))
        .unwrap();
        // Ids by name: x 0, y 1, z 2.
        let b_ = |id: u32| COND_BOOL | id << 8;
        assert_eq!(
            p.conds,
            [vec![
                b_(0),
                b_(1),
                COND_EQ,
                COND_NOT,
                b_(2),
                b_(0),
                COND_AND,
                b_(1),
                COND_XOR,
                COND_OR
            ]]
        );
        assert_eq!(p.cond_rules.len(), 4);
        let bytes = p.compile().unwrap();
        let checked = crate::mlte::compiled::Checked::new(&bytes[..]).unwrap();
        let v = checked.view();
        use crate::mlte::classes::{perm, Class};
        let (read, write) = (perm(Class::File, "read"), perm(Class::File, "write"));
        let mut values = v.default_bools();
        // !(x == y) || ((z && x) ^ y): x true, y false: true.
        let conds = v.cond_values(&values);
        assert_eq!(v.allowed(0, 1, Class::File, &conds), read);
        assert_eq!(v.auditallow(0, 1, Class::File, &conds), read);
        assert_eq!(v.dontaudit(0, 1, Class::File, &conds), 0);
        values.set(1, true);
        // x == y, and (z && x) ^ y is true: still true.
        assert_eq!(v.allowed(0, 1, Class::File, &v.cond_values(&values)), read);
        values.set(0, false);
        values.set(1, false);
        // x == y (both false), z && x false, ^ y false: false.
        let conds = v.cond_values(&values);
        assert_eq!(v.allowed(0, 1, Class::File, &conds), write);
        assert_eq!(
            v.dontaudit(0, 1, Class::File, &conds),
            perm(Class::File, "getattr")
        );
        assert_eq!(v.allowed(1, 0, Class::File, &conds), 0);
        // checkpolicy's other spellings, and a boolean used before its
        // declaration, mean the same.
        let spelled = parse(&format!(
            "{head}if (NOT x eq y or z AND x xor y) {{ allow a b : file read; auditallow a b : file read; }}\n\
             else {{ allow a b : file write; dontaudit a b : file getattr; }}\n\
             if (zz_later) {{ allow b a : file read; }}\nbool zz_later TRUE;\n"
        ))
        .unwrap();
        assert_eq!(spelled.conds[0], p.conds[0]);
        assert_eq!(
            spelled
                .bools
                .iter()
                .find(|(n, _)| n == "zz_later")
                .map(|b| b.1),
            Some(true)
        );
        // And in constraints: `&&`, `||`, `!`.
        let c = parse(&format!(
            "{head}constrain file read (! t1 == a && t2 == b || u1 == u2);\n"
        ))
        .unwrap();
        let c2 = parse(&format!(
            "{head}constrain file read (not t1 == a and t2 == b or u1 == u2);\n"
        ))
        .unwrap();
        assert_eq!(c.constraints, c2.constraints);
        for (text, want) in [
            ("bool and true;", "5:6: 'and' is a keyword"),
            (
                "if (w) { allow a b : file read; }",
                "5:5: unknown boolean 'w'",
            ),
            ("bool x false;", "5:6: a second bool x"),
            (
                "bool w maybe;",
                "5:6: bool w: expected true or false, found 'maybe'",
            ),
            (
                "if (x) { type_transition a b : file a; }",
                "5:10: 'type_transition' inside an if: not supported by mlte",
            ),
            (
                "if (x) { if (y) { allow a b : file read; } }",
                "5:10: 'if' inside an if: not supported",
            ),
            (
                "if (x &&) { allow a b : file read; }",
                "5:9: expected a boolean",
            ),
            (
                "if (x) { allow a b : file read; } neverallow a b : file read;",
                "5:35: neverallow violated",
            ),
        ] {
            let err = parse(&format!("{head}{text}")).unwrap_err().to_string();
            assert!(err.starts_with(want), "{text}: got '{err}', want '{want}'");
        }
    }

    /// `dontaudit`: expanded as allow, compiled into its own table, read
    /// back by `Compiled::dontaudit`.
    #[test]
    fn dontaudit_rules_compile_into_their_own_table() {
        let text = "sensitivity s0; level s0; attribute d; type a, d; type b;\n\
                    allow a b : file read;\ndontaudit d { a b } : file { write getattr };\n\
                    dontaudit a self : process signal;\n\
                    user u roles object_r level s0 range s0; sid kernel u:object_r:a:s0; sid file u:object_r:b:s0; sid unlabeled u:object_r:b:s0;";
        let p = parse(text).unwrap();
        assert_eq!(p.dontaudit.len(), 3);
        let bytes = p.compile().unwrap();
        let checked = crate::mlte::compiled::Checked::new(&bytes[..]).unwrap();
        let c = checked.view();
        use crate::mlte::classes::{perm, Class};
        let wg = perm(Class::File, "write") | perm(Class::File, "getattr");
        assert_eq!(c.dontaudit(0, 1, Class::File, &CondValues::NONE), wg);
        assert_eq!(c.dontaudit(0, 0, Class::File, &CondValues::NONE), wg);
        assert_eq!(c.dontaudit(1, 0, Class::File, &CondValues::NONE), 0);
        assert_eq!(
            c.dontaudit(0, 0, Class::Process, &CondValues::NONE),
            perm(Class::Process, "signal")
        );
        assert_eq!(
            c.allowed(0, 1, Class::File, &CondValues::NONE),
            perm(Class::File, "read"),
            "allow unchanged"
        );
    }

    /// With SELinux's declarations, a class has the permissions the
    /// policy declares (`*` is those; others are refused, and a class of
    /// mlte's the policy does not declare is unknown), `-` inside a name is
    /// part of it, and initial SIDs are the kernel's by place (found by a
    /// review against checkpolicy).
    #[test]
    fn declarations_bound_classes_permissions_and_sids() {
        let head = "class process { signal fork }\nclass file { read }\n\
                    sid kernel\nsid security\nsid unlabeled\nsid fs\nsid file\n\
                    sensitivity s0; level s0;\ntype a; type b;\n";
        let tail = "\nuser u roles object_r level s0 range s0;\n\
                    sid file u:object_r:b:s0\nsid kernel u:object_r:a:s0\n\
                    sid security u:object_r:a:s0\nsid unlabeled u:object_r:b:s0\nsid fs u:object_r:a:s0\n";
        let p = parse(&format!("{head}allow a b : process *;{tail}")).unwrap();
        let signal = 1u32 << CLASSES[2].1.iter().position(|p| *p == "signal").unwrap();
        assert_eq!(p.allow[&(0, 1, 2)], signal, "* is what the policy declares");
        let err = parse(&format!("{head}allow a b : process execmem;{tail}")).unwrap_err();
        assert!(
            err.to_string()
                .contains("class process has no permission 'execmem'"),
            "{err}"
        );
        let err = parse(&format!("{head}allow a b : socket create;{tail}")).unwrap_err();
        assert!(err.to_string().contains("unknown class 'socket'"), "{err}");
        let err = parse(&format!("{head}allow {{ a-b }} b : file read;{tail}")).unwrap_err();
        assert!(
            err.to_string().contains("unknown type or attribute 'a-b'"),
            "{err}"
        );
        // By place, whatever the order of the contexts: 1 kernel a, 5 file b.
        assert_eq!(p.sids[0].unwrap().ty, 0);
        assert_eq!(p.sids[1].unwrap().ty, 1);
        assert_eq!(p.sids[2].unwrap().ty, 1);
        // Declared in another order, the first is the kernel's SID 1,
        // whatever its name (the kernel reads them by place).
        let swapped = head.replace(
            "sid kernel\nsid security\nsid unlabeled\nsid fs\nsid file\n",
            "sid file\nsid security\nsid unlabeled\nsid fs\nsid kernel\n",
        );
        let q = parse(&format!("{swapped}allow a b : process *;{tail}")).unwrap();
        assert_eq!(
            q.sids[0].unwrap().ty,
            1,
            "'sid file' is declared first: SID 1"
        );
        assert_eq!(
            q.sids[1].unwrap().ty,
            0,
            "'sid kernel' is fifth: SID 5, file"
        );
    }

    /// `neverallow` is checked on the expanded rules, as checkpolicy does.
    #[test]
    fn neverallow_is_checked_after_expansion() {
        let base = "attribute d; type a, d; type b; type c;\n\
                    allow d { b c } : file { read write };\nallow a self : process signal;\n";
        assert!(parse(&format!("{base}neverallow d b : file execute;")).is_ok());
        assert!(parse(&format!("{base}neverallow b d : file *;")).is_ok());
        let err = parse(&format!(
            "{base}neverallow a {{ c -b }} : file {{ write open }};"
        ))
        .unwrap_err()
        .to_string();
        assert_eq!(err, "4:1: neverallow violated: allow a c : file { write }");
        // Through an attribute that gets its type later, and self.
        let late = "attribute d; type a; type b;\nallow d b : dir search;\n\
                    neverallow a b : dir search;\ntypeattribute a d;";
        assert!(parse(late)
            .unwrap_err()
            .to_string()
            .contains("allow a b : dir { search }"));
        let own = format!("{base}neverallow a self : process *;");
        assert!(parse(&own)
            .unwrap_err()
            .to_string()
            .contains("allow a a : process { signal }"));
    }

    #[test]
    fn a_good_policy_parses() {
        let p = parse(GOOD).unwrap();
        assert_eq!(p.types, ["init_t", "user_t", "etc_t", "bin_t"]);
        assert_eq!(p.sensitivities, [0, 1]);
        assert_eq!(p.categories, [0]);
        let file = 0u8;
        let bits = p.allow[&(1, 2, file)];
        let perm = |name| 1u32 << CLASSES[0].1.iter().position(|p| *p == name).unwrap();
        assert_eq!(
            bits,
            perm("read") | perm("open") | perm("getattr") | perm("map")
        );
        assert!(p.allow.contains_key(&(1, 1, 2)), "self is the source");
        assert_eq!(p.transitions[&(0, 3, 2)], 1);
        let sets = parse("type a; type b; type c;\nallow { a b } { self c } : dir *;").unwrap();
        let all = (1u32 << CLASSES[1].1.len()) - 1;
        let want = [
            ((0, 0, 1), all),
            ((0, 2, 1), all),
            ((1, 1, 1), all),
            ((1, 2, 1), all),
        ];
        assert_eq!(
            sets.allow.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(),
            want
        );
    }

    #[test]
    fn deep_constraints_are_refused_not_a_stack_overflow() {
        let text = |n| {
            format!(
                "{GOOD}mlsconstrain file read {}l1 dom l2;\n",
                "not ".repeat(n)
            )
        };
        assert_eq!(parse(&text(60)).err(), None);
        let err = parse(&text(100_000)).unwrap_err();
        assert!(err.message.contains("nested more than"), "{err}");
        let parens = format!(
            "{GOOD}mlsconstrain file read {}l1 dom l2;\n",
            "(".repeat(100_000)
        );
        assert!(parse(&parens)
            .unwrap_err()
            .message
            .contains("nested more than"));
    }

    #[test]
    fn mls_statements_parse() {
        let text = "sensitivity s0; sensitivity s1; category c0; category c1;\n\
                    level s0; level s1:c0,c1; type a; type b;\n\
                    user u roles object_r level s0 range s0; sid kernel u:object_r:a:s1:c0;\n\
                    sid file u:object_r:b:s0; sid unlabeled u:object_r:b:s0;\n\
                    mlsconstrain file { read write } (l1 dom l2 or t1 == { a b }) and not t2 != a;\n\
                    mlsconstrain file read h1 dom h2 and l1 eq h2 and h1 incomp l2 and l1 != h1\n\
                      and l2 == h2 and h2 domby l1;\n\
                    constrain dir read u1 == u2 or r1 != r2 or t1 == t2 or u2 != u\n\
                      or r1 == { object_r } or u1 == { u };\n";
        let p = parse(text).unwrap();
        assert_eq!(p.levels.len(), 2);
        assert_eq!(p.sids[0].unwrap().low.to_string(), "s1:c0");
        let (class, perms, ops) = &p.constraints[0];
        let bit = |name| crate::mlte::classes::perm(Class::File, name);
        assert_eq!((*class, *perms), (0, bit("read") | bit("write")));
        assert_eq!(
            ops[..],
            [
                OP_LEVEL,
                OP_NAME,
                0,
                OP_NAME,
                1,
                OP_OR,
                OP_OR,
                OP_NAME | 1 << 8 | 1 << 9,
                0,
                OP_NOT,
                OP_AND
            ]
        );
        let level = |rel: u32, pair: u32| OP_LEVEL | rel << 8 | pair << 12;
        assert_eq!(
            p.constraints[1].2[..],
            [
                level(DOM, 3),
                level(EQ, 1),
                OP_AND,
                level(INCOMP, 2),
                OP_AND,
                level(NEQ, 4),
                OP_AND,
                level(EQ, 5),
                OP_AND,
                level(DOM, 1),
                OP_AND
            ],
            "h2 domby l1 is l1 dom h2"
        );
        let (user, role) = (ATTR_USER << 10, ATTR_ROLE << 10);
        assert_eq!(
            p.constraints[2].2[..],
            [
                OP_SAME | user,
                OP_SAME | 1 << 9 | role,
                OP_OR,
                OP_SAME,
                OP_OR,
                OP_NAME | 3 << 8 | user,
                0,
                OP_OR,
                OP_NAME | role,
                0,
                OP_OR,
                OP_NAME | user,
                0,
                OP_OR
            ]
        );
        assert!(p.compile().is_ok());
        let err = parse("type a;").unwrap().compile().unwrap_err();
        assert!(err.contains("no level statement"), "{err}");
    }

    /// Roles, users, `role_transition` and role `allow`, as checkpolicy
    /// reads them: ids in name order, role types with attributes
    /// expanded, the class of a `role_transition` `process` by default.
    #[test]
    fn roles_and_users_compile() {
        let text = "sensitivity s0; sensitivity s1; level s0; level s1;\n\
                    attribute domain; type b_t, domain; type a_t, domain; type f_t;\n\
                    role z_r types domain; role a_r; role a_r types f_t;\n\
                    user b_u roles { z_r a_r } level s0 range s0 - s1;\n\
                    user a_u roles object_r level s1 range s1;\n\
                    role_transition z_r f_t a_r;\nrole_transition a_r { a_t b_t } : file z_r;\n\
                    allow z_r a_r; allow { a_r } { z_r a_r };\n\
                    sid kernel b_u:z_r:b_t:s0-s1; sid file a_u:object_r:f_t:s1;\n\
                    sid unlabeled a_u:object_r:f_t:s1;\n";
        let p = parse(text).unwrap();
        assert_eq!(p.roles, ["a_r", "object_r", "z_r"]);
        let names: Vec<&str> = p.users.iter().map(|(n, _, _)| n.as_str()).collect();
        assert_eq!(names, ["a_u", "b_u"]);
        let (a_r, object_r, z_r) = (0, 1, 2);
        let (b_t, a_t, f_t) = (0, 1, 2);
        assert_eq!(
            p.role_types.iter().copied().collect::<Vec<_>>(),
            [(a_r, f_t), (z_r, b_t), (z_r, a_t)]
        );
        assert_eq!(
            p.user_roles.iter().copied().collect::<Vec<_>>(),
            [(0, object_r), (1, a_r), (1, z_r)]
        );
        let (process, file) = (Class::Process as u8, Class::File as u8);
        assert_eq!(
            p.role_transitions
                .iter()
                .map(|(&k, &v)| (k, v))
                .collect::<Vec<_>>(),
            [
                ((a_r, b_t, file), z_r),
                ((a_r, a_t, file), z_r),
                ((z_r, f_t, process), a_r)
            ]
        );
        assert_eq!(
            p.role_allows.iter().copied().collect::<Vec<_>>(),
            [(a_r, a_r), (a_r, z_r), (z_r, a_r)]
        );
        let k = p.sids[0].unwrap();
        assert_eq!((k.user, k.role, k.ty), (1, z_r, b_t));
        assert_eq!(k.high.sensitivity, 1);
        let bytes = p.compile().unwrap();
        let checked = crate::mlte::compiled::Checked::new(&bytes[..]).unwrap();
        let c = checked.view();
        assert_eq!((c.users(), c.roles(), c.object_r()), (2, 3, object_r));
        assert_eq!(c.role_id(b"z_r"), Some(z_r));
        assert_eq!(c.user_id(b"b_u"), Some(1));
        assert_eq!(c.user_id(b"c_u"), None);
        assert!(c.role_has_type(z_r, a_t) && !c.role_has_type(z_r, f_t));
        assert!(c.user_has_role(1, a_r) && !c.user_has_role(0, a_r));
        assert_eq!(c.role_transition(z_r, f_t, Class::Process), Some(a_r));
        assert_eq!(c.role_transition(z_r, f_t, Class::File), None);
        assert!(c.role_allowed(z_r, a_r) && !c.role_allowed(z_r, z_r));
    }

    #[test]
    fn errors_say_where_and_what_was_expected() {
        let cases = [
            ("type a\n", "1:7: expected ';', found the end of the policy"),
            ("type a;\ntype a;", "2:6: 'a' is already declared"),
            (
                "type a;\nallow a b : file read;",
                "2:9: unknown type or attribute 'b'",
            ),
            (
                "type a;\nallow a a : fil read;",
                "2:13: unknown class 'fil'",
            ),
            (
                "type a;\nallow a a : file fly;",
                "2:18: class file has no permission 'fly'",
            ),
            (
                "type a;\nallow a a file read;",
                "2:11: expected ':', found 'file'",
            ),
            (
                "type a;\nallow a a : file { };",
                "2:20: expected a permission, found '}'",
            ),
            (
                "sensitivity s256;",
                "1:13: expected a sensitivity (s0 to s255)",
            ),
            ("category c1024;", "1:10: expected a category (c0 to c1023)"),
            ("permit a b;", "1:1: unknown statement 'permit'"),
            ("type a$;", "1:7: unexpected character '$'"),
            ("level s0;", "1:7: sensitivity s0 is not declared"),
            (
                "sensitivity s0;\nlevel s0:c1;",
                "2:7: category c1 is not declared",
            ),
            (
                "sensitivity s0; type a;\nuser u roles object_r level s0 range s0;",
                "2:29: no 'level' statement allows s0",
            ),
            (
                "sensitivity s0; level s0; type a;\nuser u roles object_r level s0 range s0;\n\
                 sid kernel u:object_r:b:s0;",
                "3:23: unknown type 'b'",
            ),
            (
                "sensitivity s0; level s0; type a;\nuser u roles object_r level s0 range s0;\n\
                 sid kernel a:s0;",
                "3:12: expected a context USER:ROLE:TYPE:LEVEL, found 'a:s0'",
            ),
            (
                "sensitivity s0; level s0; type a;\nuser u roles object_r level s0 range s0;\n\
                 sid kernel u:r:a:s0;",
                "3:14: unknown role 'r'",
            ),
            (
                "sensitivity s0; level s0; type a; role r;\nuser u roles object_r level s0 range s0;\n\
                 sid kernel u:r:a:s0;",
                "3:12: invalid context u:r:a: the role is not authorized for the type",
            ),
            (
                "sensitivity s0; level s0; type a; role r types a;\n\
                 user u roles object_r level s0 range s0;\nsid kernel u:r:a:s0;",
                "3:12: invalid context u:r:a: the user is not authorized for the role",
            ),
            (
                "sensitivity s0; sensitivity s1; level s0; level s1; type a; role r types a;\n\
                 user u roles r level s0 range s0;\nsid kernel u:r:a:s0 - s1;",
                "3:12: invalid context u:r:a: the range is outside the user's range",
            ),
            (
                "sensitivity s0; sensitivity s1; level s0; level s1; type a;\n\
                 user u roles nobody_r level s0 range s0;",
                "2:14: unknown role 'nobody_r'",
            ),
            (
                "sensitivity s0; sensitivity s1; level s0; level s1; type a;\n\
                 user u roles object_r level s0;",
                "2:31: expected 'range LOW - HIGH'",
            ),
            (
                "sensitivity s0; sensitivity s1; level s0; level s1; type a;\n\
                 user u roles object_r level s1 range s0;",
                "2:29: the default level s1 is outside the range",
            ),
            (
                "sensitivity s0; sensitivity s1; level s0; level s1; type a;\n\
                 user u roles object_r level s0 range s1 - s0;",
                "2:43: s0 does not dominate s1",
            ),
            (
                "type a; role object_r types a;",
                "1:14: object_r may have every type",
            ),
            (
                "type a;\nmlsconstrain file read r1 dom r2;",
                "2:27: r1 dom: role dominance is not supported by mlte",
            ),
            (
                "type a;\nmlsconstrain file read u1 == nobody_u;",
                "2:30: unknown user 'nobody_u'",
            ),
            (
                "type a;\nmlsconstrain file read t1 == u2;",
                "2:30: t1 == u2: expected t2 or names",
            ),
            (
                "type a;\nconstrain file read u1 == u2 and l1 dom l2;",
                "2:34: 'l1': a level in constrain: use mlsconstrain",
            ),
            (
                "type a;\nmlsconstrain file read t3 == a;",
                "2:24: 't3': not supported by mlte (validatetrans only)",
            ),
            ("sid bogus a:s0;", "1:5: unknown sid 'bogus'"),
            (
                "type a;\nmlsconstrain file read l1 dom l1;",
                "2:24: 'l1 l1': expected a level pair",
            ),
            (
                "type a;\nmlsconstrain file read l1 above l2;",
                "2:27: expected dom, domby, eq, incomp, == or !=, found 'above'",
            ),
            (
                "type a;\nmlsconstrain file read t1 = a;",
                "2:27: unexpected character '='",
            ),
            (
                "type a;\nmlsconstrain file read (l1 dom l2;",
                "2:34: expected ')', found ';'",
            ),
            (
                "type a; type b;\ntype_transition a a : file a;\ntype_transition a a : file b;",
                "3:1: a second type_transition for a a : file (the first gives a)",
            ),
        ];
        for (text, want) in cases {
            let err = parse(text).unwrap_err().to_string();
            assert!(
                err.starts_with(want),
                "{text:?}: got '{err}', want '{want}...'"
            );
        }
    }

    /// `range_transition`, name-based `type_transition`, `type_change`
    /// and `type_member`, as checkpolicy reads them, and their errors.
    #[test]
    fn new_object_rules_parse_and_say_where_they_are_wrong() {
        const HEAD: &str = "sensitivity s0; sensitivity s1; category c0; category c1;\n\
             level s0; level s1:c0.c1; type a; type b; type c; attribute both;\n\
             typeattribute a both; typeattribute b both;\n";
        let p = parse(&format!(
            "{HEAD}range_transition a b s0 - s1:c0;   # process\n\
             range_transition both c : {{ file dir }} s1:c1;\n\
             type_transition a b : file c \"x y#z\";   # a # in the name\n\
             type_transition a b : file c;\n\
             type_transition {{ a b }} c : dir a \"x\";\n\
             type_change a self : file c;\n\
             type_member both b : dir c;\n"
        ))
        .unwrap();
        let (file, dir, process) = (Class::File as u8, Class::Dir as u8, Class::Process as u8);
        let level = |t: &str| Level::parse(t.as_bytes()).unwrap();
        assert_eq!(
            p.range_transitions,
            BTreeMap::from([
                ((0, 1, process), (level("s0"), level("s1:c0"))),
                ((0, 2, file), (level("s1:c1"), level("s1:c1"))),
                ((0, 2, dir), (level("s1:c1"), level("s1:c1"))),
                ((1, 2, file), (level("s1:c1"), level("s1:c1"))),
                ((1, 2, dir), (level("s1:c1"), level("s1:c1"))),
            ])
        );
        assert_eq!(
            p.name_transitions,
            BTreeMap::from([
                ((0, 1, file, b"x y#z".to_vec()), 2),
                ((0, 2, dir, b"x".to_vec()), 0),
                ((1, 2, dir, b"x".to_vec()), 0),
            ])
        );
        assert_eq!(p.transitions, BTreeMap::from([((0, 1, file), 2)]));
        assert_eq!(p.type_changes, BTreeMap::from([((0, 0, file), 2)]));
        assert_eq!(
            p.type_members,
            BTreeMap::from([((0, 1, dir), 2), ((1, 1, dir), 2)])
        );
        let long = "x".repeat(256);
        let cases = [
            (
                "range_transition a b s1:c0 - s0;",
                "4:30: s0 does not dominate s1:c0",
            ),
            (
                "range_transition a b s2;",
                "4:22: sensitivity s2 is not declared",
            ),
            (
                "range_transition a b s0:c0;",
                "4:22: no 'level' statement allows s0:c0",
            ),
            (
                "range_transition a self s0;",
                "4:20: unknown type or attribute 'self'",
            ),
            (
                "range_transition a b : file;",
                "4:28: expected a level, found ';'",
            ),
            (
                "range_transition a b s0;\nrange_transition both b s1;",
                "5:1: a second range_transition for a b : process with another range",
            ),
            (
                "type_transition a b : file c \"\";",
                "4:30: \"\": a new object's name has 1",
            ),
            (
                "type_transition a b : file c \"x/y\";",
                "4:30: \"x/y\": a new object's name",
            ),
            (
                "type_transition a b : file c \"x;",
                "4:30: a name in quotes without its closing",
            ),
            (
                "type_transition a b : file c x;",
                "4:30: expected ';', found 'x'",
            ),
            ("type \"a\";", "4:6: expected a type name, found '\"a\"'"),
            (
                "type_transition a b : file c \"x\";\ntype_transition both b : file a \"x\";",
                "5:1: a second type_transition for a b : file \"x\"",
            ),
            (
                "type_transition a b : file c \"x\";\ntype_transition a b : file c \"x\";",
                "5:1: a second type_transition for a b : file \"x\"",
            ),
            (
                "type_change a b : file c;\ntype_change a b : file a;",
                "5:1: a second type_change for a b : file (the first gives c)",
            ),
            (
                // Even one that gives the same role, as checkpolicy.
                "role r;\nrole_transition r a : file object_r;\nrole_transition r a : file object_r;",
                "6:1: a second role_transition for r a : file (the first gives object_r)",
            ),
            (
                "type_member a b : file c;\ntype_member a b : file a;",
                "5:1: a second type_member for a b : file (the first gives c)",
            ),
            (
                "type_change a b : file c \"x\";",
                "4:26: expected ';', found '\"x\"'",
            ),
        ];
        for (text, want) in cases {
            let err = parse(&format!("{HEAD}{text}")).unwrap_err().to_string();
            assert!(
                err.starts_with(want),
                "{text:?}: got '{err}', want '{want}...'"
            );
        }
        let err = parse(&format!("{HEAD}type_transition a b : file c \"{long}\";"))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("4:30: a new object's name of 256 bytes: a file name has at most 255"),
            "{err}"
        );
        // Identical rules (but name-based ones) are one.
        let p = parse(&format!(
            "{HEAD}type_change a b : file c; type_change a b : file c;\n\
             range_transition a b s1; range_transition a b s1;"
        ))
        .unwrap();
        assert_eq!((p.type_changes.len(), p.range_transitions.len()), (1, 1));
    }

    #[test]
    fn file_system_statements_as_checkpolicy_reads_them() {
        const HEAD: &str = "sensitivity s0; level s0; type a; type b;\n\
             user u roles object_r level s0 range s0;\n";
        let p = parse(&format!(
            "{HEAD}fs_use_xattr ext4 u:object_r:a:s0;\n\
             fs_use_task pipefs u:object_r:b:s0;\n\
             genfscon proc / u:object_r:a:s0\n\
             genfscon proc /sys/kernel -d u:object_r:b:s0\n\
             genfscon proc /sys/kernel -- u:object_r:b:s0\n\
             genfscon proc /net u:object_r:b:s0\n\
             genfscon cgroup2 / u:object_r:a:s0\n\
             policycap cgroup_seclabel;\n"
        ))
        .unwrap();
        assert_eq!(p.fs_uses.len(), 2);
        assert_eq!(p.fs_uses[&b"pipefs"[..]].0, FsUse::Task);
        let order: Vec<(&[u8], &[u8], u32)> = p
            .genfs
            .iter()
            .map(|(fs, path, mode, _)| (&fs[..], &path[..], *mode))
            .collect();
        assert_eq!(
            order,
            [
                (&b"cgroup2"[..], &b"/"[..], 0),
                (b"proc", b"/sys/kernel", 0o040000),
                (b"proc", b"/sys/kernel", 0o100000),
                (b"proc", b"/net", 0),
                (b"proc", b"/", 0),
            ]
        );
        assert_eq!(p.policycaps, policycap::CGROUP_SECLABEL);
        for (text, want) in [
            (
                "fs_use_xattr ext4 u:object_r:a:s0; fs_use_task ext4 u:object_r:a:s0;",
                "3:36: a second fs_use statement for file system ext4",
            ),
            (
                "genfscon proc / u:object_r:a:s0\ngenfscon proc / -d u:object_r:a:s0",
                "4:1: a second genfscon rule for (proc, /)",
            ),
            (
                "genfscon proc sys u:object_r:a:s0",
                "3:15: genfscon path 'sys'",
            ),
            (
                "genfscon proc / -x u:object_r:a:s0",
                "3:18: genfscon file type '-x'",
            ),
            ("genfscon proc / u:object_r:c:s0", "3:28: unknown type 'c'"),
            (
                "fs_use_xattr e/x u:object_r:a:s0;",
                "3:14: file system type 'e/x'",
            ),
            (
                "fs_use_trans tmpfs u:r:a:s0;",
                "4:20: invalid context u:r:a",
            ),
            (
                "policycap genfs_seclabel_wildcard;",
                "3:11: 'policycap genfs_seclabel_wildcard': not supported by mlte",
            ),
        ] {
            let text = if text.contains(":r:") {
                // r lacks type a: not valid.
                format!("{HEAD}{text}").replace(
                    "user u roles object_r",
                    "role r types b;\nuser u roles { object_r r }",
                )
            } else {
                format!("{HEAD}{text}")
            };
            let err = parse(&text).unwrap_err().to_string();
            assert!(
                err.starts_with(want),
                "{text:?}: got '{err}', want '{want}...'"
            );
        }
    }
}
