// SPDX-License-Identifier: GPL-2.0

//! The compiled form of an `mlte` policy, and its checker.
//!
//! The host tool writes it (`mlte-policy compile`); the kernel loads it
//! through securityfs and treats every byte as hostile: [`Checked::new`]
//! validates all of it before anything reads a field, and afterwards every
//! lookup is in bounds by construction. The decision structure is sparse,
//! as SELinux's access vector table: one entry per (source type, target
//! type, class) that a rule allows anything, sorted, found by binary
//! search. Decisions go through the decision cache (`decision_cache.rs`),
//! so the search runs once per (SID, SID, class) triple, not per hook. The
//! `mlsconstrain` expressions of the class, if any, follow
//! (`constraint.rs`).
//!
//! Layout, all integers little-endian (`u32` unless said otherwise):
//!
//! ```text
//! header:       "MLTE" version types classes rules transitions levels
//!               constraints dontaudits roles users role_types user_roles
//!               role_transitions role_allows auditallows permissives
//!               validatetrans bools conds cond_rules type_changes
//!               type_members range_transitions name_transitions
//!               fs_uses genfs policycaps
//! type names:   types x 64 bytes, NUL-padded, 1..=64 bytes of [a-z0-9_]
//! name index:   types x type id, in strictly ascending order of name
//! role names:   roles x 64 bytes, as type names, strictly ascending (a
//!               role's id is its place); `object_r` is one
//! user names:   users x 64 bytes, the same way
//! user ranges:  users x (low level, high level), high dominating low
//! sids:         4 contexts: kernel, file, unlabeled, security
//! levels:       levels x level, sensitivities strictly ascending
//! rules:        rules x (source, target, class, perms), strictly
//!               ascending by (source, target, class), perms not 0
//! dontaudit:    dontaudits x (source, target, class, perms), the same way:
//!               the denials not to log
//! transitions:  transitions x (source, target, class, new), sorted, unique
//! role types:   role_types x (role, type), strictly ascending: the types
//!               each role may have (`role R types T`)
//! user roles:   user_roles x (user, role), strictly ascending
//! role trans.:  role_transitions x (role, type, class, new role), sorted,
//!               unique (`role_transition`)
//! role allows:  role_allows x (role, new role), strictly ascending
//!               (`allow R1 R2`)
//! auditallow:   auditallows x (source, target, class, perms), as the
//!               rules: the grants to log (`auditallow`)
//! permissive:   permissives x type, strictly ascending: the domains
//!               whose denials are logged, not enforced (`permissive`)
//! bool names:   bools x 64 bytes, as role names, strictly ascending (a
//!               boolean's id is its place)
//! bool values:  bools x default value (0 or 1)
//! conditions:   conds x (words, 31 words of a condition, `booleans.rs`)
//! cond. rules:  cond_rules x (source, target, class, perms, cond, kind |
//!               branch << 8), strictly ascending: an allow (kind 0),
//!               auditallow (1) or dontaudit (2) rule in force while
//!               condition `cond` is true (branch 0) or false (1)
//! constraints:  constraints x (class, perms, words, words x u32), classes
//!               in ascending order
//! validatetrans: validatetrans x (class, words, words x u32), classes in
//!               ascending order (`validatetrans`, `mlsvalidatetrans`)
//! type changes: type_changes x (source, target, class, new), sorted,
//!               unique (`type_change`)
//! type members: type_members x (source, target, class, new), the same
//!               way (`type_member`)
//! range trans.: range_transitions x (source, target, class, low level,
//!               high level), strictly ascending by (source, target,
//!               class), the levels allowed, high dominating low
//!               (`range_transition`)
//! name trans.:  name_transitions x (source, target, class, new, name),
//!               strictly ascending by (source, target, class, name): the
//!               name in 256 bytes, 1 to 255 bytes of anything but NUL
//!               and `/`, NUL-padded (`type_transition ... "NAME"`)
//! fs uses:      fs_uses x (file system name, behaviour, context),
//!               strictly ascending by name: the name in 64 bytes, 1 to 63
//!               bytes of `[A-Za-z0-9_.-]`, NUL-padded; the behaviour 1
//!               `fs_use_xattr`, 2 `fs_use_task`, 3 `fs_use_trans`
//!               (`fs_labelling.rs`)
//! genfs:        genfs x (file system name, path, file type, context):
//!               the path in 256 bytes, 1 to 255 bytes starting with `/`,
//!               no NUL, NUL-padded; the file type `S_IFMT` bits or 0 for
//!               any; strictly ascending by (name, path length
//!               descending: the order rules are tried in, path, file
//!               type), and no rule for any type (0) beside another for
//!               its path (`genfscon`)
//!
//! `policycaps` holds the policy capabilities that change labelling
//! (`fs_labelling::policycap`).
//!
//! level:        sensitivity, 16 x u64 category words (`CategorySet`)
//! context:      user, role, type, low level, high level
//! ```
//!
//! A `level` entry allows its sensitivity with any subset of its categories
//! (SELinux's `level s1:c0.c3;`); every level of a context must be allowed
//! by one.
//!
//! Cost: 68 bytes per type and 16 per rule; a decision cache miss is a
//! binary search over the rules (17 steps for 100,000) plus the class's
//! constraints.
//!
//! Kernel-independent: no allocation, no panic path.

use super::booleans::{
    self, BoolValues, CondValues, Conds, COND_RECORD, COND_WORDS, MAX_BOOLS, MAX_CONDS,
};
use super::category::{CategorySet, WORDS};
use super::classes::{perm, Class, CLASSES, CLASS_COUNT};
use super::constraint;
use super::context::{dominates, Context, ContextError, ContextView, LevelView, LevelWords};
use super::fs_labelling::{self, genfs_type_valid, policycap, Behaviour, FsUse};
use super::level::{Level, MAX_SENSITIVITY};
use core::ops::Deref;

/// The magic at the start of the compiled form.
pub(crate) const MAGIC: &[u8; 4] = b"MLTE";
/// The version this code reads and writes.
pub(crate) const VERSION: u32 = 14;
/// The most types a policy may declare.
pub(crate) const MAX_TYPES: u32 = 32_768;
/// The most roles a policy may declare (`object_r` included).
pub(crate) const MAX_ROLES: u32 = 4096;
/// The most users a policy may declare.
pub(crate) const MAX_USERS: u32 = 4096;
/// The most rules (allowed (source, target, class) triples); also the most
/// entries of each of the other tables.
pub(crate) const MAX_RULES: u32 = 2_000_000;
/// The longest type, role or user name, in bytes: also the size of a
/// name's slot.
pub(crate) const MAX_NAME: u32 = 64;
/// The most `level` statements.
pub(crate) const MAX_LEVELS: u32 = 256;
/// The most `mlsconstrain` statements.
pub(crate) const MAX_CONSTRAINTS: u32 = 1024;
/// The longest name of a new object that a name-based `type_transition`
/// may give: a file name's longest (`NAME_MAX`).
pub(crate) const MAX_OBJECT_NAME: usize = 255;
/// The role of objects (files, IPC objects), which needs no authorization.
pub(crate) const OBJECT_R: &[u8] = b"object_r";
/// The longest file system type name of `fs_use_*` and `genfscon`: its
/// slot is one byte more.
pub(crate) const MAX_FS_NAME: usize = 63;
/// The longest `genfscon` path: its slot is one byte more.
pub(crate) const MAX_GENFS_PATH: usize = 255;
/// The bytes of the header.
const HEADER: usize = 112;
/// The bytes of a rule or a transition.
const RULE_BYTES: usize = 16;
/// The bytes of a conditional rule.
const COND_RULE_BYTES: usize = 24;
/// A conditional rule's kind: `allow`.
pub(crate) const COND_KIND_ALLOW: u32 = 0;
/// A conditional rule's kind: `auditallow`.
pub(crate) const COND_KIND_AUDITALLOW: u32 = 1;
/// A conditional rule's kind: `dontaudit`.
pub(crate) const COND_KIND_DONTAUDIT: u32 = 2;
/// The bytes of a (role, type), (user, role) or (role, role) pair.
const PAIR_BYTES: usize = 8;
/// The bytes of an encoded level.
pub(crate) const LEVEL_BYTES: usize = 4 + 8 * WORDS;
/// The bytes of an encoded context.
pub(crate) const CONTEXT_BYTES: usize = 12 + 2 * LEVEL_BYTES;
/// The bytes of an `fs_use_*` record.
const FS_USE_BYTES: usize = MAX_FS_NAME + 1 + 4 + CONTEXT_BYTES;
/// The bytes of a `genfscon` record.
const GENFS_BYTES: usize = MAX_FS_NAME + 1 + MAX_GENFS_PATH + 1 + 4 + CONTEXT_BYTES;
/// The bytes of a range transition.
const RANGE_TRANS_BYTES: usize = 12 + 2 * LEVEL_BYTES;
/// The bytes of a name-based transition: a rule and the name's slot.
const NAME_TRANS_BYTES: usize = RULE_BYTES + MAX_OBJECT_NAME + 1;
/// The permissions of `process` that a role change needs an `allow R1
/// R2` for, as SELinux's `process_trans_perms`: `transition` (exec) and
/// `dyntransition` (`attr/current`).
const PROCESS_TRANS_PERMS: u32 =
    perm(Class::Process, "transition") | perm(Class::Process, "dyntransition");

/// The contexts a policy gives to what has no label of its own.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum InitialSid {
    /// Tasks started before the policy was loaded (the kernel, init).
    Kernel = 0,
    /// Files without a `security.mlte` xattr, or on file systems without
    /// xattrs.
    File = 1,
    /// Objects whose label names a user, role, type or level the policy
    /// does not have, or is not valid under it.
    Unlabeled = 2,
    /// The policy and its interface: the object of the `security` class's
    /// checks (loading a policy, setting the mode, asking for decisions).
    Security = 3,
}

/// The sids in the order of the compiled form, with their names in the
/// policy language.
pub(crate) const SIDS: [(InitialSid, &str); 4] = [
    (InitialSid::Kernel, "kernel"),
    (InitialSid::File, "file"),
    (InitialSid::Unlabeled, "unlabeled"),
    (InitialSid::Security, "security"),
];

/// Why a compiled policy was refused, and at which byte.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Invalid {
    /// Byte offset of the field that was wrong.
    pub(crate) at: usize,
    /// What was wrong.
    pub(crate) why: &'static str,
}

/// A table of sorted fixed-size entries: where it starts, how many.
#[derive(Clone, Copy, Debug, Default)]
struct Table {
    at: usize,
    count: u32,
}

/// Where each part of a checked policy starts.
#[derive(Clone, Copy, Debug)]
struct Layout {
    types: u32,
    levels: u32,
    index_at: usize,
    role_names: Table,
    user_names: Table,
    user_ranges_at: usize,
    level_at: usize,
    rules: Table,
    dontaudits: Table,
    transitions: Table,
    role_types: Table,
    user_roles: Table,
    role_transitions: Table,
    role_allows: Table,
    auditallows: Table,
    permissives: Table,
    bool_names: Table,
    bool_values_at: usize,
    conds: Table,
    cond_rules: Table,
    /// The id of `object_r`.
    object_r: u32,
    /// Byte span of each class's constraint records.
    constraints: [(usize, usize); CLASS_COUNT],
    /// Byte span of each class's validatetrans records.
    validatetrans: [(usize, usize); CLASS_COUNT],
    /// The sid contexts, decoded once: hooks read them for every
    /// unlabelled object.
    sids: [SidContext; SIDS.len()],
    type_changes: Table,
    type_members: Table,
    range_transitions: Table,
    name_transitions: Table,
    fs_uses: Table,
    genfs: Table,
    /// `fs_labelling::policycap` bits.
    policycaps: u32,
}

/// A sid's context and how many of its levels' category words are
/// significant.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SidContext {
    /// The context.
    pub(crate) context: Context,
    /// Words of the low level from here on are 0.
    low_len: usize,
    /// Words of the high level from here on are 0.
    high_len: usize,
}

impl SidContext {
    /// The low level's significant words.
    pub(crate) fn low_len(&self) -> usize {
        self.low_len
    }

    /// The high level's significant words.
    pub(crate) fn high_len(&self) -> usize {
        self.high_len
    }
}

impl ContextView for SidContext {
    fn user(&self) -> u32 {
        self.context.user
    }

    fn role(&self) -> u32 {
        self.context.role
    }

    fn ty(&self) -> u32 {
        self.context.ty
    }

    fn low(&self) -> LevelView<'_> {
        LevelView::new(&self.context.low, self.low_len)
    }

    fn high(&self) -> LevelView<'_> {
        LevelView::new(&self.context.high, self.high_len)
    }
}

/// A policy's bytes, owned, that passed [`Checked::new`].
///
/// # Invariants
///
/// `layout` is what the checker found in `bytes`, which do not change.
#[derive(Debug)]
pub(crate) struct Checked<B: Deref<Target = [u8]>> {
    bytes: B,
    layout: Layout,
}

/// A view of a checked policy, for decisions.
///
/// # Invariants
///
/// `layout` describes `bytes`, which passed the checker.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Compiled<'a> {
    bytes: &'a [u8],
    layout: &'a Layout,
}

/// Reads the `u32` at `at`.
#[inline]
fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Reads the `u64` at `at`.
#[inline]
fn u64_at(bytes: &[u8], at: usize) -> Option<u64> {
    let b = bytes.get(at..at.checked_add(8)?)?;
    <[u8; 8]>::try_from(b).ok().map(u64::from_le_bytes)
}

/// The offset of entry `index` of `size` bytes in a table at `base`.
///
/// Wrapping arithmetic, so that lookups on hook paths have no panic path:
/// the checker bounded every table, so nothing wraps in fact, and a wrong
/// offset would only make `get` fail (a denial), never read out of bounds.
#[inline(always)]
fn entry(base: usize, index: usize, size: usize) -> usize {
    base.wrapping_add(index.wrapping_mul(size))
}

/// Reads the level at `at`, if it is in bounds and its sensitivity in
/// range.
fn level_at(bytes: &[u8], at: usize) -> Option<Level> {
    let sensitivity = u16::try_from(u32_at(bytes, at)?).ok()?;
    if sensitivity > MAX_SENSITIVITY {
        return None;
    }
    let mut words = [0u64; WORDS];
    for (i, w) in words.iter_mut().enumerate() {
        *w = u64_at(bytes, entry(at.wrapping_add(4), i, 8))?;
    }
    Some(Level {
        sensitivity,
        categories: CategorySet::from_words(words),
    })
}

/// A level read in place in the compiled form, at `at` (in bounds once the
/// form is checked). Should it not be, it reads as the level least in the
/// caller's favour: a dominating level as `s0` with no categories, a
/// dominated one as the highest sensitivity with every category.
struct StoredLevel<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Every word and the sensitivity when out of bounds: 0 or all ones.
    absent: u64,
}

impl<'a> StoredLevel<'a> {
    /// The level at `at`, which is to dominate another.
    fn dominating(bytes: &'a [u8], at: usize) -> Self {
        StoredLevel {
            bytes,
            at,
            absent: 0,
        }
    }

    /// The level at `at`, which another is to dominate.
    fn dominated(bytes: &'a [u8], at: usize) -> Self {
        StoredLevel {
            bytes,
            at,
            absent: u64::MAX,
        }
    }
}

impl LevelWords for StoredLevel<'_> {
    #[inline(always)]
    fn sensitivity(&self) -> u32 {
        u32_at(self.bytes, self.at).unwrap_or(self.absent as u32)
    }

    #[inline(always)]
    fn word(&self, i: usize) -> u64 {
        u64_at(self.bytes, entry(self.at.wrapping_add(4), i, 8)).unwrap_or(self.absent)
    }

    /// All of them: a stored level's significant length is not kept.
    #[inline(always)]
    fn significant_words(&self) -> usize {
        WORDS
    }
}

/// Appends `level` in the compiled encoding (for the host compiler).
#[cfg(not(CONFIG_RUST))]
pub(crate) fn push_level(out: &mut Vec<u8>, level: &Level) {
    out.extend_from_slice(&u32::from(level.sensitivity).to_le_bytes());
    for w in level.categories.words() {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

/// Appends `ctx` in the compiled encoding (for the host compiler).
#[cfg(not(CONFIG_RUST))]
pub(crate) fn push_context(out: &mut Vec<u8>, ctx: &Context) {
    for v in [ctx.user, ctx.role, ctx.ty] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    push_level(out, &ctx.low);
    push_level(out, &ctx.high);
}

/// The name in a 64-byte slot: the bytes before the first NUL.
fn slot_name(slot: &[u8]) -> &[u8] {
    let len = slot.iter().position(|&b| b == 0).unwrap_or(slot.len());
    slot.get(..len).unwrap_or(&[])
}

/// Checks the name slot at `at` (`what` names its kind in errors): 1 to
/// 64 bytes of `[a-z0-9_]`, NUL-padded. The name.
fn check_name<'b>(bytes: &'b [u8], at: usize, what: &'static str) -> Result<&'b [u8], Invalid> {
    let bad = |why| Invalid { at, why };
    let slot = bytes.get(at..at + MAX_NAME as usize).ok_or(bad(what))?;
    let name = slot_name(slot);
    if name.is_empty() {
        return Err(bad("empty name"));
    }
    if !name
        .iter()
        .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    {
        return Err(bad("name with a byte outside [a-z0-9_]"));
    }
    if slot
        .get(name.len()..)
        .is_some_and(|pad| pad.iter().any(|&b| b != 0))
    {
        return Err(bad("name slot not NUL-padded"));
    }
    Ok(name)
}

/// Checks `count` name slots at `at`, strictly ascending.
fn check_sorted_names(
    bytes: &[u8],
    at: usize,
    count: u32,
    what: &'static str,
) -> Result<(), Invalid> {
    let mut previous: Option<&[u8]> = None;
    for i in 0..count as usize {
        let at = at + i * MAX_NAME as usize;
        let name = check_name(bytes, at, what)?;
        if previous.is_some_and(|p| p >= name) {
            return Err(Invalid {
                at,
                why: "role or user names not in strictly ascending order",
            });
        }
        previous = Some(name);
    }
    Ok(())
}

/// Checks the `count` pairs at `at`: strictly ascending, the first below
/// `first`, the second below `second`.
fn check_pairs(
    bytes: &[u8],
    at: usize,
    count: u32,
    first: u32,
    second: u32,
) -> Result<(), Invalid> {
    let mut previous: Option<(u32, u32)> = None;
    for i in 0..count as usize {
        let at = at + PAIR_BYTES * i;
        let get = |k: usize| u32_at(bytes, at + 4 * k).unwrap_or(u32::MAX);
        let key = (get(0), get(1));
        if key.0 >= first || key.1 >= second {
            return Err(Invalid {
                at,
                why: "pair names a role, user or type that does not exist",
            });
        }
        if previous.is_some_and(|p| p >= key) {
            return Err(Invalid {
                at,
                why: "pairs not sorted or repeated",
            });
        }
        previous = Some(key);
    }
    Ok(())
}

/// Checks every field of `bytes`.
fn check(bytes: &[u8]) -> Result<Layout, Invalid> {
    let bad = |at, why| Invalid { at, why };
    if bytes.get(..4) != Some(&MAGIC[..]) {
        return Err(bad(0, "not an mlte policy (no MLTE magic)"));
    }
    let field = |at| u32_at(bytes, at).ok_or(bad(at, "cut short in the header"));
    if field(4)? != VERSION {
        return Err(bad(4, "unknown version (this kernel reads version 10)"));
    }
    let types = field(8)?;
    if types == 0 || types > MAX_TYPES {
        return Err(bad(8, "type count out of range (1 to 32768)"));
    }
    let classes = field(12)?;
    if classes as usize != CLASS_COUNT {
        return Err(bad(12, "class count differs from this kernel's classes"));
    }
    let rules = field(16)?;
    if rules > MAX_RULES {
        return Err(bad(16, "rule count out of range (0 to 2000000)"));
    }
    let transitions = field(20)?;
    if transitions > MAX_RULES {
        return Err(bad(20, "transition count out of range (0 to 2000000)"));
    }
    let levels = field(24)?;
    if levels == 0 || levels > MAX_LEVELS {
        return Err(bad(24, "level count out of range (1 to 256)"));
    }
    let constraints = field(28)?;
    if constraints > MAX_CONSTRAINTS {
        return Err(bad(28, "constraint count out of range (0 to 1024)"));
    }
    let dontaudits = field(32)?;
    if dontaudits > MAX_RULES {
        return Err(bad(32, "dontaudit count out of range (0 to 2000000)"));
    }
    let roles = field(36)?;
    if roles == 0 || roles > MAX_ROLES {
        return Err(bad(36, "role count out of range (1 to 4096)"));
    }
    let users = field(40)?;
    if users == 0 || users > MAX_USERS {
        return Err(bad(40, "user count out of range (1 to 4096)"));
    }
    let mut counts = [0u32; 7];
    for (i, c) in counts.iter_mut().enumerate() {
        let at = 44 + 4 * i;
        *c = field(at)?;
        if *c > MAX_RULES {
            return Err(bad(at, "table count out of range (0 to 2000000)"));
        }
    }
    let [role_types, user_roles, role_transitions, role_allows, auditallows, permissives, validatetrans] =
        counts;
    if validatetrans > MAX_CONSTRAINTS {
        return Err(bad(68, "validatetrans count out of range (0 to 1024)"));
    }
    let bools = field(72)?;
    if bools > MAX_BOOLS {
        return Err(bad(72, "boolean count out of range (0 to 1024)"));
    }
    let conds = field(76)?;
    if conds > MAX_CONDS {
        return Err(bad(76, "condition count out of range (0 to 4096)"));
    }
    let cond_rules = field(80)?;
    if cond_rules > MAX_RULES {
        return Err(bad(
            80,
            "conditional rule count out of range (0 to 2000000)",
        ));
    }
    let mut later = [0u32; 6];
    for (i, c) in later.iter_mut().enumerate() {
        let at = 84 + 4 * i;
        *c = field(at)?;
        if *c > MAX_RULES {
            return Err(bad(at, "table count out of range (0 to 2000000)"));
        }
    }
    let [type_changes, type_members, range_transitions, name_transitions, fs_uses, genfs] = later;
    let policycaps = field(108)?;
    if policycaps & !policycap::ALL != 0 {
        return Err(bad(108, "unknown policy capability bits"));
    }
    // Type names: fixed slots.
    let mut at = HEADER;
    for _ in 0..types {
        check_name(bytes, at, "cut short in the type names")?;
        at += MAX_NAME as usize;
    }
    // At most 32768 types, 4096 roles and users, 256 levels and 2000000
    // entries a table: no overflow.
    let index_at = at;
    let roles_at = index_at + 4 * types as usize;
    let users_at = roles_at + MAX_NAME as usize * roles as usize;
    let user_ranges_at = users_at + MAX_NAME as usize * users as usize;
    let sids_at = user_ranges_at + 2 * LEVEL_BYTES * users as usize;
    let level_at_ = sids_at + SIDS.len() * CONTEXT_BYTES;
    let rules_at = level_at_ + levels as usize * LEVEL_BYTES;
    let dontaudit_at = rules_at + RULE_BYTES * rules as usize;
    let trans_at = dontaudit_at + RULE_BYTES * dontaudits as usize;
    let role_types_at = trans_at + RULE_BYTES * transitions as usize;
    let user_roles_at = role_types_at + PAIR_BYTES * role_types as usize;
    let role_trans_at = user_roles_at + PAIR_BYTES * user_roles as usize;
    let role_allows_at = role_trans_at + RULE_BYTES * role_transitions as usize;
    let auditallow_at = role_allows_at + PAIR_BYTES * role_allows as usize;
    let permissive_at = auditallow_at + RULE_BYTES * auditallows as usize;
    let bool_names_at = permissive_at + 4 * permissives as usize;
    let bool_values_at = bool_names_at + MAX_NAME as usize * bools as usize;
    let conds_at = bool_values_at + 4 * bools as usize;
    let cond_rules_at = conds_at + COND_RECORD * conds as usize;
    let constraints_at = cond_rules_at + COND_RULE_BYTES * cond_rules as usize;
    if bytes.len() < constraints_at {
        return Err(bad(
            index_at.min(bytes.len()),
            "cut short before the constraints (name index, roles, users, sids, levels or a table)",
        ));
    }
    // The name index: every type once, in strictly ascending order of
    // name, which also makes the names unique.
    let name_of = |ty: u32| {
        let at = HEADER + ty as usize * MAX_NAME as usize;
        slot_name(bytes.get(at..at + MAX_NAME as usize).unwrap_or(&[]))
    };
    let mut previous: Option<&[u8]> = None;
    for i in 0..types as usize {
        let at = index_at + 4 * i;
        let ty = u32_at(bytes, at).unwrap_or(u32::MAX);
        if ty >= types {
            return Err(bad(at, "name index names a type that does not exist"));
        }
        let name = name_of(ty);
        if previous.is_some_and(|p| p >= name) {
            return Err(bad(
                at,
                "name index not in ascending order of name, or a type name repeated",
            ));
        }
        previous = Some(name);
    }
    // Roles and users: sorted names; `object_r` is a role.
    check_sorted_names(bytes, roles_at, roles, "cut short in the role names")?;
    check_sorted_names(bytes, users_at, users, "cut short in the user names")?;
    let object_r = (0..roles)
        .find(|&r| {
            let at = roles_at + r as usize * MAX_NAME as usize;
            slot_name(bytes.get(at..at + MAX_NAME as usize).unwrap_or(&[])) == OBJECT_R
        })
        .ok_or(bad(roles_at, "no role object_r"))?;
    // Levels.
    let mut previous: Option<u16> = None;
    for i in 0..levels as usize {
        let at = level_at_ + i * LEVEL_BYTES;
        let level = level_at(bytes, at).ok_or(bad(at, "level with a sensitivity above s255"))?;
        if previous.is_some_and(|p| p >= level.sensitivity) {
            return Err(bad(at, "levels not in ascending order of sensitivity"));
        }
        previous = Some(level.sensitivity);
    }
    // The rules and the dontaudit rules.
    check_rules(bytes, rules_at, rules, types)?;
    check_rules(bytes, dontaudit_at, dontaudits, types)?;
    // Transitions.
    check_transitions(bytes, trans_at, transitions, types, types)?;
    check_pairs(bytes, role_types_at, role_types, roles, types)?;
    check_pairs(bytes, user_roles_at, user_roles, users, roles)?;
    check_transitions(bytes, role_trans_at, role_transitions, roles, types)?;
    check_pairs(bytes, role_allows_at, role_allows, roles, roles)?;
    check_rules(bytes, auditallow_at, auditallows, types)?;
    check_types(bytes, permissive_at, permissives, types)?;
    check_sorted_names(
        bytes,
        bool_names_at,
        bools,
        "cut short in the boolean names",
    )?;
    for i in 0..bools as usize {
        let at = bool_values_at + 4 * i;
        if u32_at(bytes, at).is_none_or(|v| v > 1) {
            return Err(bad(at, "boolean default neither 0 nor 1"));
        }
    }
    for i in 0..conds as usize {
        let at = conds_at + COND_RECORD * i;
        let words = u32_at(bytes, at).unwrap_or(u32::MAX) as usize;
        let ops = bytes
            .get(at + 4..at + 4 + 4 * words.min(COND_WORDS + 1))
            .unwrap_or(&[]);
        booleans::check(ops, bools).map_err(|(word, why)| bad(at + 4 + 4 * word, why))?;
        let unused = bytes
            .get(at + 4 + 4 * words..at + COND_RECORD)
            .unwrap_or(&[]);
        if unused.iter().any(|&b| b != 0) {
            return Err(bad(at, "condition record not zero-padded"));
        }
    }
    check_cond_rules(bytes, cond_rules_at, cond_rules, types, conds)?;
    // Constraints.
    let limits = constraint::Limits {
        users,
        roles,
        types,
    };
    let (spans, at) = check_programs(bytes, constraints_at, constraints, &limits, false)?;
    let (validatetrans_spans, at) = check_programs(bytes, at, validatetrans, &limits, true)?;
    // The tables after the constraints.
    let changes_at = at;
    let members_at = changes_at + RULE_BYTES * type_changes as usize;
    let ranges_at = members_at + RULE_BYTES * type_members as usize;
    let names_at = ranges_at + RANGE_TRANS_BYTES * range_transitions as usize;
    let fs_uses_at = names_at + NAME_TRANS_BYTES * name_transitions as usize;
    let genfs_at = fs_uses_at + FS_USE_BYTES * fs_uses as usize;
    let end = genfs_at + GENFS_BYTES * genfs as usize;
    if bytes.len() < end {
        return Err(bad(
            changes_at.min(bytes.len()),
            "cut short after the constraints (type changes, type members, range or name \
             transitions, fs_use or genfscon records)",
        ));
    }
    if bytes.len() != end {
        return Err(bad(end, "trailing bytes after the genfscon records"));
    }
    check_transitions(bytes, changes_at, type_changes, types, types)?;
    check_transitions(bytes, members_at, type_members, types, types)?;
    check_name_transitions(bytes, names_at, name_transitions, types)?;
    let table = |at, count| Table { at, count };
    let none = Level {
        sensitivity: 0,
        categories: CategorySet::EMPTY,
    };
    let none = SidContext {
        context: Context {
            user: 0,
            role: 0,
            ty: 0,
            low: none,
            high: none,
        },
        low_len: 0,
        high_len: 0,
    };
    let mut layout = Layout {
        types,
        levels,
        index_at,
        role_names: table(roles_at, roles),
        user_names: table(users_at, users),
        user_ranges_at,
        level_at: level_at_,
        rules: table(rules_at, rules),
        dontaudits: table(dontaudit_at, dontaudits),
        transitions: table(trans_at, transitions),
        role_types: table(role_types_at, role_types),
        user_roles: table(user_roles_at, user_roles),
        role_transitions: table(role_trans_at, role_transitions),
        role_allows: table(role_allows_at, role_allows),
        auditallows: table(auditallow_at, auditallows),
        permissives: table(permissive_at, permissives),
        bool_names: table(bool_names_at, bools),
        bool_values_at,
        conds: table(conds_at, conds),
        cond_rules: table(cond_rules_at, cond_rules),
        object_r,
        constraints: spans,
        validatetrans: validatetrans_spans,
        sids: [none; SIDS.len()],
        type_changes: table(changes_at, type_changes),
        type_members: table(members_at, type_members),
        range_transitions: table(ranges_at, range_transitions),
        name_transitions: table(names_at, name_transitions),
        fs_uses: table(fs_uses_at, fs_uses),
        genfs: table(genfs_at, genfs),
        policycaps,
    };
    // User ranges, then the sids, now that levels, roles and users can be
    // checked.
    let view = Compiled {
        bytes,
        layout: &layout,
    };
    for u in 0..users {
        let at = user_ranges_at + 2 * LEVEL_BYTES * u as usize;
        let (Some(low), Some(high)) = (level_at(bytes, at), level_at(bytes, at + LEVEL_BYTES))
        else {
            return Err(bad(at, "user range with a sensitivity above s255"));
        };
        if !view.level_allowed(LevelView::new(&low, WORDS))
            || !view.level_allowed(LevelView::new(&high, WORDS))
        {
            return Err(bad(at, "user range with a level no level statement allows"));
        }
        if !dominates(LevelView::new(&high, WORDS), LevelView::new(&low, WORDS)) {
            return Err(bad(
                at,
                "user range whose high level does not dominate its low",
            ));
        }
    }
    check_range_transitions(&view, ranges_at, range_transitions)?;
    check_fs_labelling(&view)?;
    let mut sids = [none; SIDS.len()];
    for (i, sid) in sids.iter_mut().enumerate() {
        let at = sids_at + i * CONTEXT_BYTES;
        let ctx = context_at(bytes, at).ok_or(bad(at, "sid context out of range"))?;
        if ctx.user >= users || ctx.role >= roles || ctx.ty >= types {
            return Err(bad(
                at,
                "sid context names a user, role or type that does not exist",
            ));
        }
        if view.validate(&ctx).is_err() {
            return Err(bad(at, "sid context not valid under the policy"));
        }
        *sid = SidContext {
            context: ctx,
            low_len: ctx.low.categories.significant_words(),
            high_len: ctx.high.categories.significant_words(),
        };
    }
    layout.sids = sids;
    Ok(layout)
}

/// The text in the `size`-byte slot at `at`: what comes before its first
/// NUL, when the rest is all NUL (at least one); `None` otherwise.
fn padded_at(bytes: &[u8], at: usize, size: usize) -> Option<&[u8]> {
    let slot = bytes.get(at..at.checked_add(size)?)?;
    let (text, pad) = slot.split_at(slot.iter().position(|&b| b == 0)?);
    pad.iter().all(|&b| b == 0).then_some(text)
}

/// The name in a file system name's slot: 1 to [`MAX_FS_NAME`] bytes of
/// `[A-Za-z0-9_.-]`, NUL-padded; `None` otherwise.
fn fs_name_at(bytes: &[u8], at: usize) -> Option<&[u8]> {
    let name = padded_at(bytes, at, MAX_FS_NAME + 1)?;
    let ok = !name.is_empty()
        && name
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(b));
    ok.then_some(name)
}

/// The name in the checked file system name's slot at `at` (as
/// [`fs_name_at`] found it at load time; read without checking it again).
#[inline]
fn fs_name_in(bytes: &[u8], at: usize) -> &[u8] {
    slot_name(
        bytes
            .get(at..at.wrapping_add(MAX_FS_NAME + 1))
            .unwrap_or(&[]),
    )
}

/// The path in a `genfscon` path slot: 1 to [`MAX_GENFS_PATH`] bytes
/// starting with `/`, no NUL, NUL-padded; `None` otherwise.
fn genfs_path_at(bytes: &[u8], at: usize) -> Option<&[u8]> {
    let path = padded_at(bytes, at, MAX_GENFS_PATH + 1)?;
    (path.first() == Some(&b'/')).then_some(path)
}

/// Checks a context record at `at` of a table: in range and valid under
/// the policy.
fn check_context_at(policy: &Compiled<'_>, at: usize) -> Result<Context, Invalid> {
    let bad = |why| Invalid { at, why };
    let ctx = context_at(policy.bytes, at).ok_or(bad("context out of range"))?;
    if ctx.user >= policy.users() || ctx.role >= policy.roles() || ctx.ty >= policy.types() {
        return Err(bad(
            "context names a user, role or type that does not exist",
        ));
    }
    if policy.validate(&ctx).is_err() {
        return Err(bad("context not valid under the policy"));
    }
    Ok(ctx)
}

/// Checks the `fs_use_*` and `genfscon` records.
fn check_fs_labelling(policy: &Compiled<'_>) -> Result<(), Invalid> {
    let bytes = policy.bytes;
    let bad = |at, why| Invalid { at, why };
    let Table { at: uses_at, count } = policy.layout.fs_uses;
    let mut previous: Option<&[u8]> = None;
    for i in 0..count as usize {
        let at = uses_at + i * FS_USE_BYTES;
        let name = fs_name_at(bytes, at).ok_or(bad(
            at,
            "fs_use file system name not 1 to 63 bytes of [A-Za-z0-9_.-], NUL-padded",
        ))?;
        if previous.is_some_and(|p| p >= name) {
            return Err(bad(
                at,
                "fs_use records not in ascending order of name, or one repeated",
            ));
        }
        previous = Some(name);
        let how_at = at + MAX_FS_NAME + 1;
        if u32_at(bytes, how_at).and_then(FsUse::from_u32).is_none() {
            return Err(bad(how_at, "fs_use behaviour neither 1, 2 nor 3"));
        }
        check_context_at(policy, how_at + 4)?;
    }
    let Table {
        at: genfs_at,
        count,
    } = policy.layout.genfs;
    let mut previous: Option<(&[u8], &[u8], u32)> = None;
    for i in 0..count as usize {
        let at = genfs_at + i * GENFS_BYTES;
        let fs = fs_name_at(bytes, at).ok_or(bad(
            at,
            "genfscon file system name not 1 to 63 bytes of [A-Za-z0-9_.-], NUL-padded",
        ))?;
        let path_at = at + MAX_FS_NAME + 1;
        let path = genfs_path_at(bytes, path_at).ok_or(bad(
            path_at,
            "genfscon path not 1 to 255 bytes starting with '/', NUL-padded",
        ))?;
        let mode_at = path_at + MAX_GENFS_PATH + 1;
        let mode = u32_at(bytes, mode_at).unwrap_or(u32::MAX);
        if !genfs_type_valid(mode) {
            return Err(bad(mode_at, "genfscon file type not 0 or one of S_IFMT's"));
        }
        // By name, longer paths first, then by path and file type, so
        // that a rule for a path and file type another one covers (the
        // same path, 0 or the same type: checkpolicy refuses it) is next
        // to it.
        if let Some((p_fs, p_path, p_mode)) = previous {
            let order = p_fs
                .cmp(fs)
                .then(path.len().cmp(&p_path.len()))
                .then(p_path.cmp(path))
                .then(p_mode.cmp(&mode));
            if order != core::cmp::Ordering::Less {
                return Err(bad(
                    at,
                    "genfscon records not by file system name, longer paths first, then by \
                     path and file type, or one repeated",
                ));
            }
            if p_fs == fs && p_path == path && p_mode == 0 {
                return Err(bad(at, "two genfscon records for one path and file type"));
            }
        }
        previous = Some((fs, path, mode));
        check_context_at(policy, mode_at + 4)?;
    }
    Ok(())
}

/// Checks the `count` programs at `at`: `constrain`/`mlsconstrain`
/// records (class, perms, words, program), or with `third` `validatetrans`
/// records (class, words, program), classes ascending. The byte span of
/// each class's records, and where they end.
fn check_programs(
    bytes: &[u8],
    mut at: usize,
    count: u32,
    limits: &constraint::Limits,
    third: bool,
) -> Result<([(usize, usize); CLASS_COUNT], usize), Invalid> {
    let bad = |at, why| Invalid { at, why };
    let mut spans = [(at, at); CLASS_COUNT];
    let mut last_class = 0usize;
    let head = if third { 8 } else { 12 };
    for _ in 0..count {
        let get = |k: usize| u32_at(bytes, at + 4 * k);
        let (class, perms, words) = if third {
            (get(0), Some(u32::MAX), get(1))
        } else {
            (get(0), get(1), get(2))
        };
        let (Some(class), Some(perms), Some(words)) = (class, perms, words) else {
            return Err(bad(at, "cut short in the constraints"));
        };
        let Some(&(_, names)) = CLASSES.get(class as usize) else {
            return Err(bad(at, "constraint names a class that does not exist"));
        };
        let class = class as usize;
        if class < last_class {
            return Err(bad(at, "constraints not in ascending order of class"));
        }
        if !third && (perms == 0 || (names.len() < 32 && perms >> names.len() != 0)) {
            return Err(bad(
                at + 4,
                "constraint permissions empty or beyond the class's",
            ));
        }
        if words == 0 || words > constraint::MAX_WORDS {
            return Err(bad(
                at + head - 4,
                "constraint length out of range (1 to 64 words)",
            ));
        }
        let ops_at = at + head;
        let end = ops_at + 4 * words as usize;
        let ops = bytes
            .get(ops_at..end)
            .ok_or(bad(ops_at, "cut short in a constraint"))?;
        constraint::check(ops, limits, third).map_err(|(word, why)| bad(ops_at + 4 * word, why))?;
        // The span of a class runs from its first record to the end of its
        // last: records of one class are adjacent (classes ascend).
        if let Some(span) = spans.get_mut(class) {
            if class != last_class || span.0 == span.1 {
                span.0 = at;
            }
            span.1 = end;
        }
        last_class = class;
        at = end;
    }
    Ok((spans, at))
}

/// Checks the `count` transitions at `at` (`(source, target, class,
/// new)`, the source and the new one below `sources`, the target below
/// `targets`): sorted and unique.
fn check_transitions(
    bytes: &[u8],
    at: usize,
    count: u32,
    sources: u32,
    targets: u32,
) -> Result<(), Invalid> {
    let bad = |at, why| Invalid { at, why };
    let mut previous: Option<(u32, u32, u32)> = None;
    for i in 0..count as usize {
        let at = at + RULE_BYTES * i;
        let get = |k: usize| u32_at(bytes, at + 4 * k).unwrap_or(u32::MAX);
        let key = (get(0), get(1), get(2));
        if key.0 >= sources || key.1 >= targets || get(3) >= sources {
            return Err(bad(
                at,
                "transition names a type or role that does not exist",
            ));
        }
        if key.2 as usize >= CLASS_COUNT {
            return Err(bad(at + 8, "transition names a class that does not exist"));
        }
        if previous.is_some_and(|p| p >= key) {
            return Err(bad(at, "transitions not sorted or repeated"));
        }
        previous = Some(key);
    }
    Ok(())
}

/// Checks the `count` conditional rules at `at`: types, classes and
/// conditions in range, kind and branch known, strictly ascending, the
/// permissions within the class and not none.
fn check_cond_rules(
    bytes: &[u8],
    at: usize,
    count: u32,
    types: u32,
    conds: u32,
) -> Result<(), Invalid> {
    let bad = |at, why| Invalid { at, why };
    let mut previous: Option<[u32; 5]> = None;
    for i in 0..count as usize {
        let at = at + COND_RULE_BYTES * i;
        let get = |k: usize| u32_at(bytes, at + 4 * k).unwrap_or(u32::MAX);
        let [s, t, c, perms, cond, flags] = [0, 1, 2, 3, 4, 5].map(get);
        if s >= types || t >= types {
            return Err(bad(at, "rule names a type that does not exist"));
        }
        let Some(&(_, names)) = CLASSES.get(c as usize) else {
            return Err(bad(at + 8, "rule names a class that does not exist"));
        };
        if perms == 0 || (names.len() < 32 && perms >> names.len() != 0) {
            return Err(bad(
                at + 12,
                "conditional rule permissions empty or beyond the class's",
            ));
        }
        if cond >= conds {
            return Err(bad(
                at + 16,
                "conditional rule names a condition that does not exist",
            ));
        }
        if flags & 0xff > COND_KIND_DONTAUDIT || flags >> 8 > 1 {
            return Err(bad(
                at + 20,
                "conditional rule of an unknown kind or branch",
            ));
        }
        let key = [s, t, c, cond, flags];
        if previous.is_some_and(|p| p >= key) {
            return Err(bad(at, "conditional rules not sorted or repeated"));
        }
        previous = Some(key);
    }
    Ok(())
}

/// Checks the `count` range transitions at `at` of `policy` (whose levels
/// are checked): types and classes in range, strictly ascending keys, the
/// levels allowed by `level` statements and the high one dominating the
/// low one, as SELinux's `range_read()` checks them (`mls_range_isvalid`).
fn check_range_transitions(policy: &Compiled<'_>, at: usize, count: u32) -> Result<(), Invalid> {
    let bad = |at, why| Invalid { at, why };
    let bytes = policy.bytes;
    let mut previous: Option<(u32, u32, u32)> = None;
    for i in 0..count as usize {
        let at = at + RANGE_TRANS_BYTES * i;
        let get = |k: usize| u32_at(bytes, at + 4 * k).unwrap_or(u32::MAX);
        let key = (get(0), get(1), get(2));
        if key.0 >= policy.types() || key.1 >= policy.types() {
            return Err(bad(at, "range transition names a type that does not exist"));
        }
        if key.2 as usize >= CLASS_COUNT {
            return Err(bad(
                at + 8,
                "range transition names a class that does not exist",
            ));
        }
        if previous.is_some_and(|p| p >= key) {
            return Err(bad(at, "range transitions not sorted or repeated"));
        }
        previous = Some(key);
        let (Some(low), Some(high)) = (
            level_at(bytes, at + 12),
            level_at(bytes, at + 12 + LEVEL_BYTES),
        ) else {
            return Err(bad(
                at + 12,
                "range transition with a sensitivity above s255",
            ));
        };
        if !policy.level_allowed(LevelView::new(&low, WORDS))
            || !policy.level_allowed(LevelView::new(&high, WORDS))
        {
            return Err(bad(
                at + 12,
                "range transition with a level no level statement allows",
            ));
        }
        if !dominates(LevelView::new(&high, WORDS), LevelView::new(&low, WORDS)) {
            return Err(bad(
                at + 12,
                "range transition whose high level does not dominate its low",
            ));
        }
    }
    Ok(())
}

/// Checks the `count` type ids at `at`: each below `types`, strictly
/// ascending.
fn check_types(bytes: &[u8], at: usize, count: u32, types: u32) -> Result<(), Invalid> {
    let mut previous = None;
    for i in 0..count as usize {
        let at = at + 4 * i;
        let ty = u32_at(bytes, at).unwrap_or(u32::MAX);
        if ty >= types {
            return Err(Invalid {
                at,
                why: "permissive type that does not exist",
            });
        }
        if previous.is_some_and(|p| p >= ty) {
            return Err(Invalid {
                at,
                why: "permissive types not sorted or repeated",
            });
        }
        previous = Some(ty);
    }
    Ok(())
}

/// Checks the `count` name-based transitions at `at`: types and classes
/// in range, names of 1 to 255 bytes without `/` in NUL-padded slots,
/// strictly ascending by (source, target, class, name).
fn check_name_transitions(bytes: &[u8], at: usize, count: u32, types: u32) -> Result<(), Invalid> {
    let bad = |at, why| Invalid { at, why };
    // (source, target, class) and the name.
    type Key<'b> = ((u32, u32, u32), &'b [u8]);
    let mut previous: Option<Key<'_>> = None;
    for i in 0..count as usize {
        let at = at + NAME_TRANS_BYTES * i;
        let get = |k: usize| u32_at(bytes, at + 4 * k).unwrap_or(u32::MAX);
        let key = (get(0), get(1), get(2));
        if key.0 >= types || key.1 >= types || get(3) >= types {
            return Err(bad(at, "name transition names a type that does not exist"));
        }
        if key.2 as usize >= CLASS_COUNT {
            return Err(bad(
                at + 8,
                "name transition names a class that does not exist",
            ));
        }
        let slot_at = at + RULE_BYTES;
        let slot = bytes
            .get(slot_at..slot_at + MAX_OBJECT_NAME + 1)
            .ok_or(bad(slot_at, "cut short in a name transition"))?;
        let name = slot_name(slot);
        if name.is_empty() || name.len() > MAX_OBJECT_NAME || name.contains(&b'/') {
            return Err(bad(
                slot_at,
                "name transition with a name empty, of 256 bytes or with a '/'",
            ));
        }
        if slot
            .get(name.len()..)
            .is_some_and(|pad| pad.iter().any(|&b| b != 0))
        {
            return Err(bad(slot_at, "name transition's name not NUL-padded"));
        }
        if previous.is_some_and(|p| p >= (key, name)) {
            return Err(bad(at, "name transitions not sorted or repeated"));
        }
        previous = Some((key, name));
    }
    Ok(())
}

/// Checks the `count` rules (allow, auditallow or dontaudit) at `at`: types and
/// classes in range, strictly ascending keys, permission bits within the
/// class, not none.
fn check_rules(bytes: &[u8], at: usize, count: u32, types: u32) -> Result<(), Invalid> {
    let bad = |at, why| Invalid { at, why };
    let mut previous: Option<(u32, u32, u32)> = None;
    for i in 0..count as usize {
        let at = at + RULE_BYTES * i;
        let get = |k: usize| u32_at(bytes, at + 4 * k).unwrap_or(u32::MAX);
        let key = (get(0), get(1), get(2));
        if key.0 >= types || key.1 >= types {
            return Err(bad(at, "rule names a type that does not exist"));
        }
        let Some(&(_, names)) = CLASSES.get(key.2 as usize) else {
            return Err(bad(at + 8, "rule names a class that does not exist"));
        };
        if previous.is_some_and(|p| p >= key) {
            return Err(bad(at, "rules not sorted or repeated"));
        }
        previous = Some(key);
        let bits = get(3);
        if bits == 0 {
            return Err(bad(at + 12, "rule that allows nothing"));
        }
        if names.len() < 32 && bits >> names.len() != 0 {
            return Err(bad(
                at + 12,
                "permission bit beyond its class's permissions",
            ));
        }
    }
    Ok(())
}

/// Reads the context at `at`.
fn context_at(bytes: &[u8], at: usize) -> Option<Context> {
    Some(Context {
        user: u32_at(bytes, at)?,
        role: u32_at(bytes, at + 4)?,
        ty: u32_at(bytes, at + 8)?,
        low: level_at(bytes, at + 12)?,
        high: level_at(bytes, at + 12 + LEVEL_BYTES)?,
    })
}

impl<B: Deref<Target = [u8]>> Checked<B> {
    /// Checks every field of `bytes`; on success they are the policy's.
    pub(crate) fn new(bytes: B) -> Result<Self, Invalid> {
        let layout = check(&bytes)?;
        // INVARIANT: `layout` is what the checker found in `bytes`.
        Ok(Checked { bytes, layout })
    }

    /// The view that decisions use.
    #[inline]
    pub(crate) fn view(&self) -> Compiled<'_> {
        // INVARIANT: the checked bytes and their layout.
        Compiled {
            bytes: &self.bytes,
            layout: &self.layout,
        }
    }
}

impl<'a> Compiled<'a> {
    /// The number of types.
    pub(crate) fn types(&self) -> u32 {
        self.layout.types
    }

    /// The number of roles.
    pub(crate) fn roles(&self) -> u32 {
        self.layout.role_names.count
    }

    /// The number of users.
    pub(crate) fn users(&self) -> u32 {
        self.layout.user_names.count
    }

    /// The name in slot `index` of the `count` slots at `base` (empty out
    /// of range).
    fn slot(&self, base: usize, count: u32, index: u32) -> &'a [u8] {
        if index >= count {
            return &[];
        }
        let at = entry(base, index as usize, MAX_NAME as usize);
        slot_name(
            self.bytes
                .get(at..at.wrapping_add(MAX_NAME as usize))
                .unwrap_or(&[]),
        )
    }

    /// The name of type `ty` (empty for an id out of range).
    pub(crate) fn type_name(&self, ty: u32) -> &'a [u8] {
        self.slot(HEADER, self.layout.types, ty)
    }

    /// The name of role `role` (empty for an id out of range).
    pub(crate) fn role_name(&self, role: u32) -> &'a [u8] {
        let t = self.layout.role_names;
        self.slot(t.at, t.count, role)
    }

    /// The name of user `user` (empty for an id out of range).
    pub(crate) fn user_name(&self, user: u32) -> &'a [u8] {
        let t = self.layout.user_names;
        self.slot(t.at, t.count, user)
    }

    /// The id of the type named `name`: a binary search of the name index.
    pub(crate) fn type_id(&self, name: &[u8]) -> Option<u32> {
        let (mut lo, mut hi) = (0usize, self.layout.types as usize);
        while lo < hi {
            // `lo < hi`, so nothing wraps.
            let mid = lo.wrapping_add(hi.wrapping_sub(lo) / 2);
            let ty = u32_at(self.bytes, entry(self.layout.index_at, mid, 4))?;
            match self.type_name(ty).cmp(name) {
                core::cmp::Ordering::Equal => return Some(ty),
                core::cmp::Ordering::Less => lo = mid.wrapping_add(1),
                core::cmp::Ordering::Greater => hi = mid,
            }
        }
        None
    }

    /// The id in the sorted name slots `t` of `name`: a binary search.
    fn sorted_id(&self, t: Table, name: &[u8]) -> Option<u32> {
        let (mut lo, mut hi) = (0u32, t.count);
        while lo < hi {
            // `lo < hi`, so nothing wraps.
            let mid = lo.wrapping_add(hi.wrapping_sub(lo) / 2);
            match self.slot(t.at, t.count, mid).cmp(name) {
                core::cmp::Ordering::Equal => return Some(mid),
                core::cmp::Ordering::Less => lo = mid.wrapping_add(1),
                core::cmp::Ordering::Greater => hi = mid,
            }
        }
        None
    }

    /// The id of the role named `name`.
    pub(crate) fn role_id(&self, name: &[u8]) -> Option<u32> {
        self.sorted_id(self.layout.role_names, name)
    }

    /// The id of the user named `name`.
    pub(crate) fn user_id(&self, name: &[u8]) -> Option<u32> {
        self.sorted_id(self.layout.user_names, name)
    }

    /// The id of `object_r`.
    pub(crate) fn object_r(&self) -> u32 {
        self.layout.object_r
    }

    /// Whether role `role` may have type `ty` (`role R types T`).
    pub(crate) fn role_has_type(&self, role: u32, ty: u32) -> bool {
        search_pair(self.bytes, self.layout.role_types, (role, ty))
    }

    /// Whether user `user` may have role `role` (`user U roles R`).
    pub(crate) fn user_has_role(&self, user: u32, role: u32) -> bool {
        search_pair(self.bytes, self.layout.user_roles, (user, role))
    }

    /// Whether a process in role `from` may enter role `to` (`allow
    /// FROM TO`).
    pub(crate) fn role_allowed(&self, from: u32, to: u32) -> bool {
        search_pair(self.bytes, self.layout.role_allows, (from, to))
    }

    /// Whether `c` is a valid context of this policy, as SELinux's
    /// `policydb_context_isvalid()` with `mls_context_isvalid()`: its user,
    /// role and type exist; unless its role is `object_r`, the role may
    /// have the type and the user the role; its levels are allowed, the
    /// high one dominates the low one, and (unless the role is `object_r`)
    /// the range is within the user's.
    pub(crate) fn validate(&self, c: &impl ContextView) -> Result<(), ContextError> {
        let (user, role, ty) = (c.user(), c.role(), c.ty());
        if user >= self.users() {
            return Err(ContextError::UnknownUser);
        }
        if role >= self.roles() {
            return Err(ContextError::UnknownRole);
        }
        if ty >= self.types() {
            return Err(ContextError::UnknownType);
        }
        let object = role == self.object_r();
        if !object && !self.role_has_type(role, ty) {
            return Err(ContextError::RoleWithoutType);
        }
        if !object && !self.user_has_role(user, role) {
            return Err(ContextError::UserWithoutRole);
        }
        let (low, high) = (c.low(), c.high());
        if !self.level_allowed(low) || !self.level_allowed(high) {
            return Err(ContextError::LevelNotAllowed);
        }
        if !dominates(high, low) {
            return Err(ContextError::HighBelowLow);
        }
        if !object {
            // The user's range, read in place: its low level, then its
            // high level (`user < users()`, checked above).
            let at = entry(self.layout.user_ranges_at, user as usize, 2 * LEVEL_BYTES);
            let user_high = StoredLevel::dominating(self.bytes, at.wrapping_add(LEVEL_BYTES));
            if !dominates(low, StoredLevel::dominated(self.bytes, at))
                || !dominates(user_high, high)
            {
                return Err(ContextError::OutsideUserRange);
            }
        }
        Ok(())
    }

    /// The permissions of `class` whose denial of `source` on `target` a
    /// `dontaudit` rule (one in force under `conds`) keeps out of the log.
    pub(crate) fn dontaudit(
        &self,
        source: u32,
        target: u32,
        class: Class,
        conds: &impl Conds,
    ) -> u32 {
        search(
            self.bytes,
            self.layout.dontaudits,
            (source, target, class as u32),
        )
        .unwrap_or(0)
            | self.cond_rules(source, target, class, COND_KIND_DONTAUDIT, conds)
    }

    /// The permissions of `class` whose grant to `source` on `target` an
    /// `auditallow` rule (one in force under `conds`) logs.
    pub(crate) fn auditallow(
        &self,
        source: u32,
        target: u32,
        class: Class,
        conds: &impl Conds,
    ) -> u32 {
        search(
            self.bytes,
            self.layout.auditallows,
            (source, target, class as u32),
        )
        .unwrap_or(0)
            | self.cond_rules(source, target, class, COND_KIND_AUDITALLOW, conds)
    }

    /// The permissions the conditional rules of `kind` in force under
    /// `conds` give `source` on `target` in `class`: those of each rule of
    /// the triple whose condition has the value of its branch (SELinux's
    /// `cond_compute_av()`).
    fn cond_rules(
        &self,
        source: u32,
        target: u32,
        class: Class,
        kind: u32,
        conds: &impl Conds,
    ) -> u32 {
        let t = self.layout.cond_rules;
        if t.count == 0 {
            return 0;
        }
        let key = (source, target, class as u32);
        let get = |i: usize, k: usize| {
            u32_at(self.bytes, entry(entry(t.at, i, COND_RULE_BYTES), k, 4)).unwrap_or(u32::MAX)
        };
        // The first entry of the triple.
        let lo = lower_bound(t.count, |i| (get(i, 0), get(i, 1), get(i, 2)) < key);
        let mut perms = 0;
        let mut i = lo;
        while i < t.count as usize && (get(i, 0), get(i, 1), get(i, 2)) == key {
            let flags = get(i, 5);
            let on_true = flags >> 8 == 0;
            if flags & 0xff == kind && conds.holds(get(i, 4)) == on_true {
                perms |= get(i, 3);
            }
            i = i.wrapping_add(1);
        }
        perms
    }

    /// The number of booleans.
    pub(crate) fn bool_count(&self) -> u32 {
        self.layout.bool_names.count
    }

    /// The name of boolean `id` (empty out of range).
    pub(crate) fn bool_name(&self, id: u32) -> &'a [u8] {
        self.slot(self.layout.bool_names.at, self.layout.bool_names.count, id)
    }

    /// The id of the boolean named `name`.
    pub(crate) fn bool_id(&self, name: &[u8]) -> Option<u32> {
        self.sorted_id(self.layout.bool_names, name)
    }

    /// The number of conditions (`if` statements).
    pub(crate) fn cond_count(&self) -> u32 {
        self.layout.conds.count
    }

    /// The booleans' values as the policy declares them.
    pub(crate) fn default_bools(&self) -> BoolValues {
        let mut values = BoolValues::default();
        for id in 0..self.bool_count() {
            let at = entry(self.layout.bool_values_at, id as usize, 4);
            values.set(id, u32_at(self.bytes, at) == Some(1));
        }
        values
    }

    /// The value of every condition under `values`.
    pub(crate) fn cond_values(&self, values: &BoolValues) -> CondValues {
        let mut out = CondValues::NONE;
        let t = self.layout.conds;
        for cond in 0..t.count {
            let at = entry(t.at, cond as usize, COND_RECORD);
            let words = u32_at(self.bytes, at).unwrap_or(0) as usize;
            let ops_at = at.wrapping_add(4);
            let ops = self
                .bytes
                .get(ops_at..entry(ops_at, words, 4))
                .unwrap_or(&[]);
            out.set(cond, booleans::eval(ops, values));
        }
        out
    }

    /// Whether domain `ty` is permissive (`permissive TYPE;`): its denials
    /// are logged and not enforced, as SELinux's `AVD_FLAGS_PERMISSIVE`.
    pub(crate) fn permissive(&self, ty: u32) -> bool {
        let t = self.layout.permissives;
        let (mut lo, mut hi) = (0usize, t.count as usize);
        while lo < hi {
            // `lo < hi`, so nothing wraps.
            let mid = lo.wrapping_add(hi.wrapping_sub(lo) / 2);
            match u32_at(self.bytes, entry(t.at, mid, 4))
                .unwrap_or(u32::MAX)
                .cmp(&ty)
            {
                core::cmp::Ordering::Equal => return true,
                core::cmp::Ordering::Less => lo = mid.wrapping_add(1),
                core::cmp::Ordering::Greater => hi = mid,
            }
        }
        false
    }

    /// The number of rules.
    pub(crate) fn rules(&self) -> u32 {
        self.layout.rules.count
    }

    /// The context of `sid`, for decisions.
    #[inline]
    pub(crate) fn sid_view(&self, sid: InitialSid) -> &'a SidContext {
        let [kernel, file, unlabeled, security] = &self.layout.sids;
        match sid {
            InitialSid::Kernel => kernel,
            InitialSid::File => file,
            InitialSid::Unlabeled => unlabeled,
            InitialSid::Security => security,
        }
    }

    /// The policy capabilities that change labelling
    /// (`fs_labelling::policycap` bits).
    pub(crate) fn policycaps(&self) -> u32 {
        self.layout.policycaps
    }

    /// How the inodes of a file system of type `fs` are labelled, and the
    /// file system's context (`sid unlabeled`'s when the policy names it
    /// nowhere), as SELinux's `security_fs_use()`: its `fs_use_*`
    /// statement, or else the `genfscon` rule for its `/` as a directory.
    pub(crate) fn fs_behaviour(&self, fs: &[u8]) -> (Behaviour, Context) {
        if let Some((how, context_at_)) = self.fs_use(fs) {
            if let Some(ctx) = context_at(self.bytes, context_at_) {
                return (Behaviour::Use(how), ctx);
            }
        }
        match self.genfs(fs, b"/", fs_labelling::S_IFDIR) {
            Some(ctx) => (Behaviour::Genfs, ctx),
            None => (
                Behaviour::None,
                self.sid_view(InitialSid::Unlabeled).context,
            ),
        }
    }

    /// How the inodes of a file system of type `fs` are labelled
    /// ([`Compiled::fs_behaviour`] without the context: nothing copied for
    /// an `fs_use_*` file system).
    pub(crate) fn fs_labelling(&self, fs: &[u8]) -> Behaviour {
        match self.fs_use(fs) {
            Some((how, _)) => Behaviour::Use(how),
            None if self.genfs(fs, b"/", fs_labelling::S_IFDIR).is_some() => Behaviour::Genfs,
            None => Behaviour::None,
        }
    }

    /// The `fs_use_*` statement of `fs`, if there is one: how, and where
    /// its context is.
    fn fs_use(&self, fs: &[u8]) -> Option<(FsUse, usize)> {
        let Table { at, count } = self.layout.fs_uses;
        let i = bsearch(count, |i| {
            fs_name_in(self.bytes, entry(at, i, FS_USE_BYTES)).cmp(fs)
        })?;
        let how_at = entry(at, i, FS_USE_BYTES).wrapping_add(MAX_FS_NAME + 1);
        let how = u32_at(self.bytes, how_at).and_then(FsUse::from_u32)?;
        Some((how, how_at.wrapping_add(4)))
    }

    /// The context of the first `genfscon` rule of file system `fs` (in
    /// the kernel's order: longer paths first) whose path is a prefix of
    /// `path` and whose file type is `mode`'s or any, as SELinux's
    /// `__security_genfs_sid()`; `path` as the inode's path from the file
    /// system's root (`fs_labelling::genfs_path` takes proc's PIDs out).
    pub(crate) fn genfs(&self, fs: &[u8], path: &[u8], mode: u32) -> Option<Context> {
        let rest = fs_labelling::genfs_path(fs, path)?;
        let Table { at, count } = self.layout.genfs;
        let fs_of = |i: usize| fs_name_in(self.bytes, entry(at, i, GENFS_BYTES));
        // The first record of `fs`: records are sorted by name.
        let lo = lower_bound(count, |i| fs_of(i) < fs);
        let file_type = mode & fs_labelling::S_IFMT;
        (lo..count as usize)
            .take_while(|&i| fs_of(i) == fs)
            .find_map(|i| {
                let path_at = entry(at, i, GENFS_BYTES).wrapping_add(MAX_FS_NAME + 1);
                let rule = genfs_path_at(self.bytes, path_at)?;
                let mode_at = path_at.wrapping_add(MAX_GENFS_PATH + 1);
                let rule_type = u32_at(self.bytes, mode_at)?;
                let applies = (rule_type == 0 || rule_type == file_type)
                    && fs_labelling::genfs_matches(rule, rest);
                if applies {
                    context_at(self.bytes, mode_at.wrapping_add(4))
                } else {
                    None
                }
            })
    }

    /// Whether a `level` statement allows `level`: the one of its
    /// sensitivity (levels are sorted by sensitivity, one each: a binary
    /// search), whose categories contain `level`'s, read in place.
    pub(crate) fn level_allowed(&self, level: LevelView<'_>) -> bool {
        let sensitivity = level.sensitivity();
        let at = |i: usize| entry(self.layout.level_at, i, LEVEL_BYTES);
        let found = bsearch(self.layout.levels, |i| {
            u32_at(self.bytes, at(i))
                .unwrap_or(u32::MAX)
                .cmp(&sensitivity)
        });
        found.is_some_and(|i| dominates(StoredLevel::dominating(self.bytes, at(i)), level))
    }

    /// The permissions `source` has on `target` in `class`, as a bitmap of
    /// the class's permissions: a binary search of the rules, and of the
    /// conditional rules in force under `conds`; 0 when none allows
    /// anything (ids out of range included).
    #[inline]
    pub(crate) fn allowed(
        &self,
        source: u32,
        target: u32,
        class: Class,
        conds: &impl Conds,
    ) -> u32 {
        search(
            self.bytes,
            self.layout.rules,
            (source, target, class as u32),
        )
        .unwrap_or(0)
            | self.cond_rules(source, target, class, COND_KIND_ALLOW, conds)
    }

    /// Which of `perms` (bits of `class`'s permissions) subject `s` is
    /// denied on object `o`: those no rule allows, those of an
    /// `mlsconstrain` of the class whose expression does not hold, and, as
    /// SELinux's `context_struct_compute_av()`, a process transition to
    /// another role that no `allow R1 R2` permits. 0 means allowed.
    #[inline]
    pub(crate) fn denied(
        &self,
        s: &impl ContextView,
        o: &impl ContextView,
        class: Class,
        perms: u32,
        conds: &impl Conds,
    ) -> u32 {
        let mut denied = perms & !self.allowed(s.ty(), o.ty(), class, conds);
        let (mut at, end) = self
            .layout
            .constraints
            .get(class as usize)
            .copied()
            .unwrap_or((0, 0));
        while at < end {
            let get = |k: usize| u32_at(self.bytes, entry(at, k, 4)).unwrap_or(0);
            let (cperms, words) = (get(1), get(2) as usize);
            let ops_at = at.wrapping_add(12);
            let ops_end = entry(ops_at, words, 4);
            if cperms & perms & !denied != 0 {
                let ops = self.bytes.get(ops_at..ops_end).unwrap_or(&[]);
                if !constraint::holds(ops, s, o) {
                    denied |= cperms & perms;
                }
            }
            at = ops_end;
        }
        if class == Class::Process
            && perms & PROCESS_TRANS_PERMS & !denied != 0
            && s.role() != o.role()
            && !self.role_allowed(s.role(), o.role())
        {
            denied |= perms & PROCESS_TRANS_PERMS;
        }
        denied
    }

    /// Whether relabelling an object of `class` from `old` to `new` by a
    /// task in `task` passes every `validatetrans` of the class, as
    /// SELinux's `security_validate_transition()`.
    pub(crate) fn validate_transition(
        &self,
        old: &impl ContextView,
        new: &impl ContextView,
        task: &impl ContextView,
        class: Class,
    ) -> bool {
        let (mut at, end) = self
            .layout
            .validatetrans
            .get(class as usize)
            .copied()
            .unwrap_or((0, 0));
        while at < end {
            let words = u32_at(self.bytes, entry(at, 1, 4)).unwrap_or(0) as usize;
            let ops_at = at.wrapping_add(8);
            let ops_end = entry(ops_at, words, 4);
            let ops = self.bytes.get(ops_at..ops_end).unwrap_or(&[]);
            if !constraint::holds_with_third(ops, old, new, Some(task)) {
                return false;
            }
            at = ops_end;
        }
        true
    }

    /// The type a new object of `class` gets when `source` creates it in (or
    /// `source` executes) `target`, if a transition says so (for the host:
    /// the kernel asks [`Compiled::new_context`]).
    #[cfg(not(CONFIG_RUST))]
    pub(crate) fn transition(&self, source: u32, target: u32, class: Class) -> Option<u32> {
        search(
            self.bytes,
            self.layout.transitions,
            (source, target, class as u32),
        )
    }

    /// The role a new object of `class` gets when a subject in role `role`
    /// creates it in (or executes) an object of type `target`, if a
    /// `role_transition` says so.
    pub(crate) fn role_transition(&self, role: u32, target: u32, class: Class) -> Option<u32> {
        search(
            self.bytes,
            self.layout.role_transitions,
            (role, target, class as u32),
        )
    }

    /// The range (low, high) a `range_transition` gives a new object of
    /// `class` that `source` creates in (or executes) `target`, if one
    /// does.
    pub(crate) fn range_transition(
        &self,
        source: u32,
        target: u32,
        class: Class,
    ) -> Option<(Level, Level)> {
        let t = self.layout.range_transitions;
        let key = (source, target, class as u32);
        let i = bsearch(t.count, |i| {
            let at = entry(t.at, i, RANGE_TRANS_BYTES);
            key_at(self.bytes, at).cmp(&key)
        })?;
        let at = entry(t.at, i, RANGE_TRANS_BYTES).wrapping_add(12);
        Some((
            level_at(self.bytes, at)?,
            level_at(self.bytes, at.wrapping_add(LEVEL_BYTES))?,
        ))
    }

    /// The type a name-based `type_transition` gives a new object of
    /// `class` named `name` that `source` creates in `target`, if one
    /// does: the name must match exactly.
    pub(crate) fn name_transition(
        &self,
        source: u32,
        target: u32,
        class: Class,
        name: &[u8],
    ) -> Option<u32> {
        let t = self.layout.name_transitions;
        let key = ((source, target, class as u32), name);
        let slot = |at: usize| {
            let slot_at = at.wrapping_add(RULE_BYTES);
            slot_name(
                self.bytes
                    .get(slot_at..slot_at.wrapping_add(MAX_OBJECT_NAME + 1))
                    .unwrap_or(&[]),
            )
        };
        let i = bsearch(t.count, |i| {
            let at = entry(t.at, i, NAME_TRANS_BYTES);
            (key_at(self.bytes, at), slot(at)).cmp(&key)
        })?;
        u32_at(
            self.bytes,
            entry(t.at, i, NAME_TRANS_BYTES).wrapping_add(12),
        )
    }

    /// Whether some name-based `type_transition` is for a new object of
    /// `class` that `source` creates in `target`: if none is, the new
    /// context does not depend on the object's name.
    pub(crate) fn has_name_transitions(&self, source: u32, target: u32, class: Class) -> bool {
        let t = self.layout.name_transitions;
        let key = (source, target, class as u32);
        let at = |i: usize| entry(t.at, i, NAME_TRANS_BYTES);
        let first = lower_bound(t.count, |i| key_at(self.bytes, at(i)) < key);
        first < t.count as usize && key_at(self.bytes, at(first)) == key
    }

    /// The context of a new object of `class` that subject `s` asks for
    /// with `t`, as SELinux's `security_compute_sid()` with
    /// `mls_compute_sid()` (mlte has no `default_*` statements):
    ///
    /// - user: `s`'s; for [`Computation::Member`] `t`'s;
    /// - role: for a process or a socket `s`'s, otherwise `object_r`; for
    ///   [`Computation::Create`], a `role_transition`'s if one applies;
    /// - type: the `type_transition`'s (`type_change`'s, `type_member`'s)
    ///   if one applies, otherwise for a process or a socket `s`'s, and
    ///   `t`'s for other objects; for [`Computation::Create`] with a name,
    ///   a name-based `type_transition`'s for that name wins;
    /// - range: for [`Computation::Create`], a `range_transition`'s if one
    ///   applies; otherwise for a process or a socket `s`'s range, for
    ///   other objects (and any [`Computation::Member`]) `s`'s low level.
    ///
    /// The caller checks the result with [`Compiled::validate`], as SELinux
    /// does (an invalid one is refused with `EACCES` when enforcing).
    pub(crate) fn new_context(
        &self,
        s: &Context,
        t: &Context,
        class: Class,
        how: Computation<'_>,
    ) -> Context {
        let subject_like = class == Class::Process || class.is_socket();
        let (ty, role) = if subject_like {
            (s.ty, s.role)
        } else {
            (t.ty, self.object_r())
        };
        let rules = match how {
            Computation::Create { .. } => self.layout.transitions,
            Computation::Relabel => self.layout.type_changes,
            Computation::Member => self.layout.type_members,
        };
        let rule = search(self.bytes, rules, (s.ty, t.ty, class as u32));
        let mut new = Context {
            user: if how == Computation::Member {
                t.user
            } else {
                s.user
            },
            role,
            ty: rule.unwrap_or(ty),
            low: s.low,
            high: if subject_like && how != Computation::Member {
                s.high
            } else {
                s.low
            },
        };
        if let Computation::Create { name } = how {
            if let Some(ty) = name.and_then(|n| self.name_transition(s.ty, t.ty, class, n)) {
                new.ty = ty;
            }
            if let Some(role) = self.role_transition(s.role, t.ty, class) {
                new.role = role;
            }
            if let Some((low, high)) = self.range_transition(s.ty, t.ty, class) {
                new.low = low;
                new.high = high;
            }
        }
        new
    }
}

/// Which of SELinux's computations of a new context
/// ([`Compiled::new_context`]): its `security_transition_sid()`,
/// `security_change_sid()` and `security_member_sid()`, which selinuxfs's
/// `create`, `relabel` and `member` answer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Computation<'n> {
    /// A new object (a file, a socket, a process by exec), with the new
    /// file's name if there is one.
    Create {
        /// The new object's name, for name-based `type_transition`s.
        name: Option<&'n [u8]>,
    },
    /// An object relabelled for the subject (`type_change`).
    Relabel,
    /// A member of a polyinstantiated object (`type_member`).
    Member,
}

/// The three key words of the entry at `at` (`u32::MAX` for any out of
/// bounds).
#[inline]
fn key_at(bytes: &[u8], at: usize) -> (u32, u32, u32) {
    let get = |k: usize| u32_at(bytes, entry(at, k, 4)).unwrap_or(u32::MAX);
    (get(0), get(1), get(2))
}

/// The index among `count` sorted entries at which `compare` (the entry's
/// order against the key sought) gives `Equal`: a binary search.
#[inline]
fn bsearch(count: u32, compare: impl Fn(usize) -> core::cmp::Ordering) -> Option<usize> {
    let (mut lo, mut hi) = (0usize, count as usize);
    while lo < hi {
        // `lo < hi`, so nothing wraps.
        let mid = lo.wrapping_add(hi.wrapping_sub(lo) / 2);
        match compare(mid) {
            core::cmp::Ordering::Equal => return Some(mid),
            core::cmp::Ordering::Less => lo = mid.wrapping_add(1),
            core::cmp::Ordering::Greater => hi = mid,
        }
    }
    None
}

/// The first of `count` sorted entries for which `below` is false (all
/// those before it are below the key sought): a binary search.
fn lower_bound(count: u32, below: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0usize, count as usize);
    while lo < hi {
        // `lo < hi`, so nothing wraps.
        let mid = lo.wrapping_add(hi.wrapping_sub(lo) / 2);
        if below(mid) {
            lo = mid.wrapping_add(1);
        } else {
            hi = mid;
        }
    }
    lo
}

/// The last word of the entry keyed `key` in the table `t` of sorted
/// 16-byte entries (three key words, one value): a binary search.
#[inline]
fn search(bytes: &[u8], t: Table, key: (u32, u32, u32)) -> Option<u32> {
    let i = bsearch(t.count, |i| {
        key_at(bytes, entry(t.at, i, RULE_BYTES)).cmp(&key)
    })?;
    u32_at(bytes, entry(entry(t.at, i, RULE_BYTES), 3, 4))
}

/// Whether the table `t` of sorted 8-byte pairs holds `key`: a binary
/// search.
fn search_pair(bytes: &[u8], t: Table, key: (u32, u32)) -> bool {
    let (mut lo, mut hi) = (0usize, t.count as usize);
    while lo < hi {
        // `lo < hi`, so nothing wraps.
        let mid = lo.wrapping_add(hi.wrapping_sub(lo) / 2);
        let at = entry(t.at, mid, PAIR_BYTES);
        let get = |k: usize| u32_at(bytes, entry(at, k, 4)).unwrap_or(u32::MAX);
        match (get(0), get(1)).cmp(&key) {
            core::cmp::Ordering::Equal => return true,
            core::cmp::Ordering::Less => lo = mid.wrapping_add(1),
            core::cmp::Ordering::Greater => hi = mid,
        }
    }
    false
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::mlte::classes::perm;
    use crate::mlte::policy_text::parse;

    const CLASS_LIST: [Class; CLASS_COUNT] = Class::ALL;

    pub(crate) const POLICY: &str = "\
sensitivity s0; sensitivity s1; sensitivity s2;
category c0; category c1; category c2;
level s0; level s1:c0.c2; level s2:c0.c2;
type init_t; type user_t; type bin_t; type tmp_t; type user_tmp_t;
allow init_t bin_t : file { read open execute };
allow user_t tmp_t : dir { search add_name write };
allow user_t tmp_t : file { read write };
allow user_t self : process signal;
type_transition init_t bin_t : process user_t;
type_transition user_t tmp_t : file user_tmp_t;
mlsconstrain file { read } l1 dom l2;
mlsconstrain file { write } l1 domby l2 or t1 == init_t;
role system_r types { init_t user_t };
user system_u roles system_r level s0 range s0 - s2:c0.c2;
sid kernel system_u:system_r:init_t:s0; sid file system_u:object_r:tmp_t:s0; sid unlabeled system_u:object_r:tmp_t:s0;
";

    fn compiled() -> Vec<u8> {
        parse(POLICY).unwrap().compile().unwrap()
    }

    fn ctx(policy: &Compiled<'_>, text: &str) -> Context {
        Context::parse(text.as_bytes(), policy).unwrap()
    }

    #[test]
    fn decisions_match_the_text() {
        let p = parse(POLICY).unwrap();
        let bytes = compiled();
        let checked = Checked::new(&bytes[..]).unwrap();
        let c = checked.view();
        assert_eq!(c.types(), 5);
        for s in 0..5 {
            for t in 0..5 {
                for (i, &class) in CLASS_LIST.iter().enumerate() {
                    let key = (s, t, i as u8);
                    let want = p.allow.get(&key).copied().unwrap_or(0);
                    assert_eq!(c.allowed(s, t, class, &CondValues::NONE), want);
                    assert_eq!(c.transition(s, t, class), p.transitions.get(&key).copied());
                }
            }
        }
        assert_eq!(
            c.allowed(5, 0, Class::File, &CondValues::NONE),
            0,
            "out of range: nothing"
        );
        assert_eq!(c.type_name(1), b"user_t");
        assert_eq!(c.type_name(5), b"");
        assert_eq!(c.type_id(b"bin_t"), Some(2));
        assert_eq!(
            c.sid_view(InitialSid::File).context,
            ctx(&c, "system_u:object_r:tmp_t:s0")
        );
    }

    /// A policy of `types` generated types and `rules` random allow rules
    /// (xorshift from a fixed seed), with the declarations a policy needs.
    pub(crate) fn generated_policy(types: usize, rules: usize) -> String {
        let mut text = String::from("sensitivity s0; category c0; level s0:c0;\n");
        for t in 0..types {
            text.push_str(&format!("type scale_{t}_t;\n"));
        }
        text.push_str(
            "user scale_u roles object_r level s0 range s0 - s0:c0;\n\
             sid kernel scale_u:object_r:scale_0_t:s0; sid file scale_u:object_r:scale_0_t:s0;\n\
             sid unlabeled scale_u:object_r:scale_1_t:s0;\n",
        );
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..rules {
            let (s, t) = (next() as usize % types, next() as usize % types);
            let (class, perms) = CLASSES[next() as usize % CLASSES.len()];
            let perm = perms[next() as usize % perms.len()];
            text.push_str(&format!(
                "allow scale_{s}_t scale_{t}_t : {class} {perm};\n"
            ));
        }
        text
    }

    #[test]
    fn a_policy_of_5000_types_and_100000_rules_compiles_loads_and_decides() {
        let text = generated_policy(5000, 100_000);
        let p = parse(&text).unwrap();
        let bytes = p.compile().unwrap();
        let checked = Checked::new(&bytes[..]).unwrap();
        let c = checked.view();
        assert_eq!(c.types(), 5000);
        let rules = p.allow.len();
        assert!(rules > 90_000, "{rules} distinct triples");
        assert_eq!(c.rules() as usize, rules);
        // Sparse: 68 bytes per type, 16 per rule, plus the fixed parts.
        assert!(
            bytes.len() < 5000 * 68 + 16 * rules + 4096,
            "{} bytes",
            bytes.len()
        );
        // Every rule decides as written, and triples without one allow
        // nothing.
        for (&(s, t, class), &bits) in &p.allow {
            assert_eq!(
                c.allowed(s, t, Class::ALL[usize::from(class)], &CondValues::NONE),
                bits
            );
        }
        let mut none = 0;
        for s in 0..200u32 {
            for t in 0..200u32 {
                for (i, &class) in CLASS_LIST.iter().enumerate() {
                    let want = p.allow.get(&(s, t, i as u8)).copied().unwrap_or(0);
                    assert_eq!(c.allowed(s, t, class, &CondValues::NONE), want);
                    none += usize::from(want == 0);
                }
            }
        }
        assert!(none > 0);
        // The name index finds every type.
        for t in (0..5000).step_by(7) {
            let name = format!("scale_{t}_t");
            assert_eq!(c.type_id(name.as_bytes()), Some(t));
        }
        assert_eq!(c.type_id(b"scale_5000_t"), None);
        assert_eq!(c.type_id(b""), None);
    }

    #[test]
    fn mls_constraints_apply_to_their_permissions_only() {
        let bytes = compiled();
        let checked = Checked::new(&bytes[..]).unwrap();
        let c = checked.view();
        let (read, write) = (perm(Class::File, "read"), perm(Class::File, "write"));
        let user = |level: &str| ctx(&c, &format!("system_u:system_r:user_t:{level}"));
        let tmp = |level: &str| ctx(&c, &format!("system_u:object_r:tmp_t:{level}"));
        // Types allow read and write; levels decide.
        assert_eq!(
            c.denied(
                &user("s1"),
                &tmp("s1"),
                Class::File,
                read | write,
                &CondValues::NONE
            ),
            0
        );
        assert_eq!(
            c.denied(
                &user("s1"),
                &tmp("s2"),
                Class::File,
                read,
                &CondValues::NONE
            ),
            read,
            "read up"
        );
        assert_eq!(
            c.denied(
                &user("s1"),
                &tmp("s0"),
                Class::File,
                write,
                &CondValues::NONE
            ),
            write,
            "write down"
        );
        assert_eq!(
            c.denied(
                &user("s1"),
                &tmp("s0"),
                Class::File,
                read,
                &CondValues::NONE
            ),
            0,
            "read down"
        );
        assert_eq!(
            c.denied(
                &user("s1"),
                &tmp("s2"),
                Class::File,
                write,
                &CondValues::NONE
            ),
            0,
            "write up"
        );
        // Categories: s1:c0,c1 reads s1:c0 but not s1:c2.
        let s = user("s1:c0,c1");
        assert_eq!(
            c.denied(&s, &tmp("s1:c0"), Class::File, read, &CondValues::NONE),
            0
        );
        assert_eq!(
            c.denied(&s, &tmp("s1:c2"), Class::File, read, &CondValues::NONE),
            read
        );
        // The type test: init_t writes down (no allow rule, though).
        let init = ctx(&c, "system_u:system_r:init_t:s2");
        assert_eq!(
            c.denied(&init, &tmp("s0"), Class::File, write, &CondValues::NONE),
            write,
            "no allow rule"
        );
        // A type denial is not masked by constraints, and the other
        // classes have none.
        assert_eq!(
            c.denied(
                &user("s0"),
                &user("s0"),
                Class::Process,
                1 << 1,
                &CondValues::NONE
            ),
            0
        );
        assert_eq!(
            c.denied(
                &user("s0"),
                &user("s0"),
                Class::Process,
                1,
                &CondValues::NONE
            ),
            1
        );
    }

    #[test]
    fn contexts_parse_against_the_policy() {
        use ContextError::*;
        let bad_level = Level(crate::mlte::level::Level::parse(b"x").unwrap_err());
        let cases: [(&str, Result<(), ContextError>); 19] = [
            ("system_u:system_r:user_t:s1:c0.c2", Ok(())),
            ("system_u:system_r:user_t:s0-s2:c0.c2", Ok(())),
            ("system_u:object_r:tmp_t:s1-s1:c0", Ok(())),
            // The old form, and other short ones.
            ("user_t:s0", Err(ExpectedFields)),
            ("user_t", Err(ExpectedFields)),
            ("system_u:system_r:user_t", Err(ExpectedFields)),
            ("nobody_u:system_r:user_t:s0", Err(UnknownUser)),
            ("system_u:nobody_r:user_t:s0", Err(UnknownRole)),
            ("system_u:system_r:nobody_t:s0", Err(UnknownType)),
            ("system_u:system_r:user_t:s0:c0", Err(LevelNotAllowed)),
            ("system_u:system_r:user_t:s3", Err(LevelNotAllowed)),
            ("system_u:system_r:user_t:s0-s3", Err(LevelNotAllowed)),
            ("system_u:system_r:user_t:x", Err(bad_level)),
            ("system_u:system_r:user_t:s0-x", Err(bad_level)),
            ("system_u:system_r:user_t:s2-s1", Err(HighBelowLow)),
            ("system_u:system_r:user_t:s1:c0-s2", Err(HighBelowLow)),
            // system_r may not have tmp_t; object_r may have any type.
            ("system_u:system_r:tmp_t:s0", Err(RoleWithoutType)),
            ("system_u:object_r:user_t:s0", Ok(())),
            ("other_u:system_r:user_t:s0", Err(UserWithoutRole)),
        ];
        let with_other = POLICY.replace(
            "user system_u",
            "role other_r types user_t; user other_u roles other_r level s0 range s0; user system_u",
        );
        for (text, want) in cases {
            assert_eq!(parse_under(&with_other, text), want, "{text}");
        }
        let bytes = compiled();
        let checked = Checked::new(&bytes[..]).unwrap();
        let c = checked.view();
        let x = ctx(&c, "system_u:system_r:user_t:s1:c2,c0,c1");
        assert_eq!(x.show(&c).to_string(), "system_u:system_r:user_t:s1:c0.c2");
        // A range whose high level is its low one shows as the low one.
        let x = ctx(&c, "system_u:system_r:user_t:s1:c0-s1:c0");
        assert_eq!(x.show(&c).to_string(), "system_u:system_r:user_t:s1:c0");
        let x = ctx(&c, "system_u:system_r:user_t:s0-s2:c2,c0,c1");
        assert_eq!(
            x.show(&c).to_string(),
            "system_u:system_r:user_t:s0-s2:c0.c2"
        );
        // The range must lie within the user's.
        let narrow = POLICY.replace("range s0 - s2:c0.c2", "range s0 - s1:c0");
        let parse = |t: &str| parse_under(&narrow, t);
        assert_eq!(parse("system_u:system_r:user_t:s0-s1:c0"), Ok(()));
        assert_eq!(
            parse("system_u:system_r:user_t:s0-s1:c0,c1"),
            Err(OutsideUserRange)
        );
        assert_eq!(parse("system_u:system_r:user_t:s2"), Err(OutsideUserRange));
        assert_eq!(parse("system_u:object_r:user_t:s2"), Ok(()), "object_r");
        // Nor below it: the low level must dominate the user's low one,
        // categories included.
        let raised = POLICY
            .replace(
                "level s0 range s0 - s2:c0.c2",
                "level s1:c0 range s1:c0 - s2:c0.c2",
            )
            .replace(
                "sid kernel system_u:system_r:init_t:s0",
                "sid kernel system_u:system_r:init_t:s1:c0",
            );
        let parse = |t: &str| parse_under(&raised, t);
        assert_eq!(parse("system_u:system_r:user_t:s1:c0-s2:c0"), Ok(()));
        assert_eq!(
            parse("system_u:system_r:user_t:s1-s2:c0"),
            Err(OutsideUserRange)
        );
        assert_eq!(
            parse("system_u:system_r:user_t:s0-s2:c0"),
            Err(OutsideUserRange)
        );
    }

    use crate::mlte::context::ContextError;

    /// Whether `text` is a valid context under policy `policy` (compiled
    /// and checked afresh).
    fn parse_under(policy: &str, text: &str) -> Result<(), ContextError> {
        let bytes = parse(policy).unwrap().compile().unwrap();
        let checked = Checked::new(&bytes[..]).unwrap();
        let c = checked.view();
        Context::parse(text.as_bytes(), &c).map(|_| ())
    }

    #[test]
    fn every_cut_is_refused() {
        let bytes = compiled();
        for len in 0..bytes.len() {
            assert!(Checked::new(&bytes[..len]).is_err(), "cut at {len}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Checked::new(&longer[..]).is_err(), "trailing byte");
    }

    /// The auditallow and permissive tables are checked as the others:
    /// types in range, sorted, unique, no empty rule.
    #[test]
    fn hostile_auditallow_and_permissive_tables_are_refused() {
        let text = format!(
            "{POLICY}\nauditallow user_t tmp_t : file read;\npermissive init_t;\npermissive user_t;\n"
        );
        let p = parse(&text).unwrap();
        let bytes = p.compile().unwrap();
        let c = Checked::new(&bytes[..]).unwrap();
        let v = c.view();
        let (init, user, tmp) = (
            v.type_id(b"init_t"),
            v.type_id(b"user_t"),
            v.type_id(b"tmp_t"),
        );
        let (init, user, tmp) = (init.unwrap(), user.unwrap(), tmp.unwrap());
        assert!(v.permissive(init) && v.permissive(user) && !v.permissive(tmp));
        assert_eq!(
            v.auditallow(user, tmp, Class::File, &CondValues::NONE),
            perm(Class::File, "read")
        );
        assert_eq!(v.auditallow(tmp, user, Class::File, &CondValues::NONE), 0);
        let constraints = bytes.len()
            - p.constraints
                .iter()
                .map(|(_, _, ops)| 12 + 4 * ops.len())
                .sum::<usize>();
        let (permissive, auditallow) = (constraints - 8, constraints - 8 - 16);
        let set = |at: usize, v: u32| {
            let mut b = bytes.clone();
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            b
        };
        for (b, why) in [
            (set(permissive, 99), "permissive type that does not exist"),
            (
                set(permissive, user),
                "permissive types not sorted or repeated",
            ),
            (set(auditallow + 12, 0), "rule that allows nothing"),
            (set(auditallow, 99), "rule names a type that does not exist"),
        ] {
            assert_eq!(Checked::new(&b[..]).unwrap_err().why, why);
        }
        assert_eq!(
            Checked::new(&set(64, MAX_RULES + 1)[..]).unwrap_err(),
            Invalid {
                at: 64,
                why: "table count out of range (0 to 2000000)"
            }
        );
    }

    /// The validatetrans programs are checked as the constraints, and may
    /// test a third context where the constraints may not.
    #[test]
    fn hostile_validatetrans_programs_are_refused() {
        let text = format!("{POLICY}\nvalidatetrans file (t3 == init_t);\n");
        let bytes = parse(&text).unwrap().compile().unwrap();
        assert!(Checked::new(&bytes[..]).is_ok());
        // The record: class, words (2), OP_NAME | THIRD, the type.
        let record = bytes.len() - 16;
        let set = |at: usize, v: u32| {
            let mut b = bytes.clone();
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            b
        };
        for (b, why) in [
            (set(68, 0), "trailing bytes after the genfscon records"),
            (
                set(68, MAX_CONSTRAINTS + 1),
                "validatetrans count out of range (0 to 1024)",
            ),
            (
                set(record, 99),
                "constraint names a class that does not exist",
            ),
            (
                set(record + 4, 0),
                "constraint length out of range (1 to 64 words)",
            ),
            (
                set(record + 12, 99),
                "name test names a user, role or type that does not exist",
            ),
        ] {
            assert_eq!(Checked::new(&b[..]).unwrap_err().why, why);
        }
        // A constraint may not test a third context.
        let p = parse(POLICY).unwrap();
        let plain = p.compile().unwrap();
        let last_op = plain.len() - 12;
        let mut b = plain.clone();
        let op = u32::from_le_bytes(b[last_op..last_op + 4].try_into().unwrap());
        b[last_op..last_op + 4].copy_from_slice(&(op | constraint::THIRD).to_le_bytes());
        assert_eq!(Checked::new(&b[..]).unwrap_err().why, "unknown operation");
    }

    /// The booleans, conditions and conditional rules are checked: values
    /// 0 or 1, names sorted, conditions well formed over existing
    /// booleans, rules sorted with known kinds, branches and conditions.
    #[test]
    fn hostile_boolean_tables_are_refused() {
        let text = format!(
            "{POLICY}\nbool a_b true;\nbool c_d false;\n\
             if (a_b && !c_d) {{ allow user_t tmp_t : dir search; }}\n"
        );
        let bytes = parse(&text).unwrap().compile().unwrap();
        let c = Checked::new(&bytes[..]).unwrap();
        assert_eq!(c.view().bool_id(b"c_d"), Some(1));
        let p = parse(POLICY).unwrap();
        let constraints = bytes.len()
            - p.constraints
                .iter()
                .map(|(_, _, ops)| 12 + 4 * ops.len())
                .sum::<usize>();
        let rule = constraints - COND_RULE_BYTES;
        let cond = rule - COND_RECORD;
        let values = cond - 8;
        let names = values - 2 * MAX_NAME as usize;
        let set = |at: usize, v: u32| {
            let mut b = bytes.clone();
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            b
        };
        for (b, why) in [
            (set(values, 2), "boolean default neither 0 nor 1"),
            (
                set(names, u32::from_le_bytes(*b"z_b\0")),
                "role or user names not in strictly ascending order",
            ),
            (
                set(cond, 0),
                "condition length out of range (1 to 31 words)",
            ),
            (
                set(cond + 4, booleans::COND_BOOL | 2 << 8),
                "condition names a boolean that does not exist",
            ),
            (set(cond + 4, 99), "unknown condition operation"),
            (set(cond + 4 + 4 * 5, 1), "condition record not zero-padded"),
            (
                set(rule + 16, 1),
                "conditional rule names a condition that does not exist",
            ),
            (
                set(rule + 20, 3),
                "conditional rule of an unknown kind or branch",
            ),
            (
                set(rule + 20, 2 << 8),
                "conditional rule of an unknown kind or branch",
            ),
            (
                set(rule + 12, 0),
                "conditional rule permissions empty or beyond the class's",
            ),
            (
                set(72, MAX_BOOLS + 1),
                "boolean count out of range (0 to 1024)",
            ),
            (
                set(76, MAX_CONDS + 1),
                "condition count out of range (0 to 4096)",
            ),
        ] {
            assert_eq!(Checked::new(&b[..]).unwrap_err().why, why);
        }
    }

    #[test]
    fn hostile_fields_are_refused_and_nothing_panics() {
        let bytes = compiled();
        let set = |at: usize, v: u32| {
            let mut b = bytes.clone();
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            b
        };
        let names = HEADER;
        let index = names + 5 * MAX_NAME as usize;
        let roles = index + 5 * 4;
        let users = roles + 2 * MAX_NAME as usize;
        let ranges = users + MAX_NAME as usize;
        let sids = ranges + 2 * LEVEL_BYTES;
        let levels = sids + SIDS.len() * CONTEXT_BYTES;
        let rules = levels + 3 * LEVEL_BYTES;
        let cases = [
            (set(0, 0), 0),
            (set(4, 2), 4),
            (set(8, 0), 8),
            (set(8, MAX_TYPES + 1), 8),
            (set(8, u32::MAX), 8),
            (set(12, 99), 12),
            (set(16, MAX_RULES + 1), 16),
            (set(16, u32::MAX), 16),
            (set(20, u32::MAX), 0),
            (set(24, 0), 24),
            (set(28, MAX_CONSTRAINTS + 1), 28),
            (set(32, MAX_RULES + 1), 32),
            (set(32, 1), 0),
            (set(36, 0), 36),
            (set(36, MAX_ROLES + 1), 36),
            (set(40, 0), 40),
            (set(40, MAX_USERS + 1), 40),
            (set(44, MAX_RULES + 1), 44),
            (set(56, MAX_RULES + 1), 56),
            (set(44, 3), 0),
            (set(names, 0), names),
            (set(names, u32::from_le_bytes(*b"A\0\0\0")), names),
            (set(index, 5), index),
            (set(index + 4, 2), index + 4),
            (set(roles, 0), roles),
            (set(users, u32::from_le_bytes(*b"A\0\0\0")), users),
            (set(ranges, 999), ranges),
            (set(ranges + LEVEL_BYTES, 0), ranges),
            (set(sids, 5), sids),
            (set(sids + 4, 7), sids),
            (set(sids + 8, 5), sids),
            (set(sids + 12, 3), sids),
            (set(levels, 999), levels),
            (set(levels + LEVEL_BYTES, 0), levels + LEVEL_BYTES),
            (set(rules, 5), rules),
            (set(rules + 8, CLASS_COUNT as u32), rules + 8),
            (set(rules + 12, 0), rules + 12),
            (set(rules + 16, 0), rules + 16),
        ];
        for (b, at) in cases {
            let err = Checked::new(&b[..]).unwrap_err();
            assert!(at == 0 || err.at == at, "{err:?} for a bad field at {at}");
        }
        // Two types of one name: the index cannot ascend.
        let mut b = bytes.clone();
        b[names + MAX_NAME as usize..names + MAX_NAME as usize + 6].copy_from_slice(b"init_t");
        b[names + MAX_NAME as usize + 6] = 0;
        assert_eq!(
            Checked::new(&b[..]).unwrap_err().why,
            "name index not in ascending order of name, or a type name repeated"
        );
        // A name slot with bytes after its NUL.
        let mut b = bytes.clone();
        b[names + 10] = b'x';
        assert_eq!(
            Checked::new(&b[..]).unwrap_err().why,
            "name slot not NUL-padded"
        );
        // Roles out of order, and no object_r.
        let mut b = bytes.clone();
        b[roles..roles + 8].copy_from_slice(b"zbject_r");
        assert_eq!(
            Checked::new(&b[..]).unwrap_err().why,
            "role or user names not in strictly ascending order"
        );
        b[roles..roles + 8].copy_from_slice(b"object_q");
        assert_eq!(Checked::new(&b[..]).unwrap_err().why, "no role object_r");
        // A sid context the policy does not find valid: the kernel's role
        // (system_r) with tmp_t.
        let mut b = bytes.clone();
        b[sids + 8..sids + 12].copy_from_slice(&3u32.to_le_bytes());
        assert_eq!(
            Checked::new(&b[..]).unwrap_err().why,
            "sid context not valid under the policy"
        );
        // Constraints: a bad operation, a type out of range, a class out of
        // order.
        let p = parse(POLICY).unwrap();
        let constraints = bytes.len()
            - p.constraints
                .iter()
                .map(|(_, _, ops)| 12 + 4 * ops.len())
                .sum::<usize>();
        assert!(Checked::new(&set(constraints + 12, 99)[..]).is_err());
        assert!(
            Checked::new(&set(constraints + 4, 0)[..]).is_err(),
            "no permissions"
        );
        assert!(
            Checked::new(&set(constraints, 9)[..]).is_err(),
            "no such class"
        );
        let second = constraints + 12 + 4 * p.constraints[0].2.len();
        assert_eq!(
            Checked::new(&set(constraints, 1)[..]).unwrap_err().why,
            "constraints not in ascending order of class"
        );
        // `t1 == init_t` with a type out of range: the last word.
        assert_eq!(
            bytes.len() - 8,
            second + 12 + 8,
            "layout of the second constraint"
        );
        assert!(Checked::new(&set(bytes.len() - 8, 5)[..]).is_err());
        // The role and user tables: (system_r, init_t), (system_r, user_t),
        // then (system_u, system_r). A type out of range, then out of
        // order.
        let role_types = constraints - 3 * 8;
        assert_eq!(
            Checked::new(&set(role_types + 4, 5)[..]).unwrap_err().why,
            "pair names a role, user or type that does not exist"
        );
        assert_eq!(
            Checked::new(&set(role_types + 12, 0)[..]).unwrap_err().why,
            "pairs not sorted or repeated"
        );
        assert_eq!(
            Checked::new(&set(role_types + 16, 1)[..]).unwrap_err().why,
            "pair names a role, user or type that does not exist"
        );
        // Transitions: a type out of range, then out of order.
        let trans = role_types - 2 * 16;
        assert!(Checked::new(&set(trans + 12, 5)[..]).is_err());
        let mut swapped = bytes.clone();
        let (first, second) = (trans..trans + 16, trans + 16..trans + 32);
        let a = bytes[first.clone()].to_vec();
        swapped[first].copy_from_slice(&bytes[second.clone()]);
        swapped[second].copy_from_slice(&a);
        assert_eq!(
            Checked::new(&swapped[..]).unwrap_err().why,
            "transitions not sorted or repeated"
        );
        // A bit beyond the class's permissions (the last rule, user_t
        // tmp_t dir).
        let beyond_dir = 1 << Class::Dir.entry().1.len();
        assert_eq!(
            Checked::new(&set(trans - 4, beyond_dir)[..])
                .unwrap_err()
                .why,
            "permission bit beyond its class's permissions"
        );
        // Random corruption: refused or consistent, never a panic.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut b = bytes.clone();
            let at = (seed % b.len() as u64) as usize;
            b[at] ^= (seed >> 32) as u8 | 1;
            if let Ok(checked) = Checked::new(&b[..]) {
                let c = checked.view();
                let k = &c.sid_view(InitialSid::Kernel).context;
                for s in 0..c.types() {
                    let x = Context { ty: s, ..*k };
                    let _ = c.denied(&x, k, Class::File, u32::MAX, &CondValues::NONE);
                    let _ = c.transition(s, s, Class::File);
                }
            }
        }
    }

    /// The tables of new-object rules, after the constraints.
    pub(crate) const NEW_OBJECTS: &str = "\
type_change user_t tmp_t : file bin_t;
type_member user_t tmp_t : dir user_tmp_t;
range_transition init_t bin_t s1:c0 - s2:c0.c2;
range_transition user_t tmp_t : { file dir } s1;
type_transition user_t tmp_t : file bin_t \"a b\";
type_transition user_t tmp_t : file init_t \"z\";
user other_u roles system_r level s0 range s0 - s2:c0.c2;
";

    fn with_new_objects() -> Vec<u8> {
        let text = format!("{POLICY}{NEW_OBJECTS}");
        parse(&text).unwrap().compile().unwrap()
    }

    /// `new_context` as SELinux's `security_compute_sid()` and
    /// `mls_compute_sid()`, for each computation.
    #[test]
    fn new_contexts_as_security_compute_sid() {
        let bytes = with_new_objects();
        let checked = Checked::new(&bytes[..]).unwrap();
        let c = checked.view();
        let user = ctx(&c, "system_u:system_r:user_t:s0-s2:c0.c2");
        let init = ctx(&c, "system_u:system_r:init_t:s0-s1:c1");
        let tmp = ctx(&c, "system_u:object_r:tmp_t:s2:c1");
        let bin = ctx(&c, "system_u:object_r:bin_t:s0");
        let create = |name| Computation::Create { name };
        let show = |new: Context| new.show(&c).to_string();
        // A file: the plain type_transition, the name-based one for its
        // name only (exactly), the range_transition's range.
        let file = |name| show(c.new_context(&user, &tmp, Class::File, create(name)));
        assert_eq!(file(None), "system_u:object_r:user_tmp_t:s1");
        assert_eq!(file(Some(&b"a b"[..])), "system_u:object_r:bin_t:s1");
        assert_eq!(file(Some(&b"z"[..])), "system_u:object_r:init_t:s1");
        assert_eq!(file(Some(&b"a"[..])), "system_u:object_r:user_tmp_t:s1");
        assert_eq!(file(Some(&b"a b "[..])), "system_u:object_r:user_tmp_t:s1");
        assert_eq!(file(Some(&b""[..])), "system_u:object_r:user_tmp_t:s1");
        // No range_transition for sockets: the source's range.
        assert_eq!(
            show(c.new_context(&user, &tmp, Class::Socket, create(None))),
            "system_u:system_r:user_t:s0-s2:c0.c2"
        );
        // An exec: the type and the range of the rules.
        assert_eq!(
            show(c.new_context(&init, &bin, Class::Process, create(None))),
            "system_u:system_r:user_t:s1:c0-s2:c0.c2"
        );
        // Relabel: type_change, and never a range_transition's range: the
        // source's low level for a file, its range for a process.
        let relabel =
            |s: &Context, class| show(c.new_context(s, &tmp, class, Computation::Relabel));
        assert_eq!(relabel(&user, Class::File), "system_u:object_r:bin_t:s0");
        assert_eq!(relabel(&user, Class::Dir), "system_u:object_r:tmp_t:s0");
        assert_eq!(
            relabel(&user, Class::Process),
            "system_u:system_r:user_t:s0-s2:c0.c2"
        );
        // Member: the target's user, type_member, the source's low level
        // even for a process.
        let other = ctx(&c, "other_u:object_r:tmp_t:s1");
        let member =
            |s: &Context, class| show(c.new_context(s, &other, class, Computation::Member));
        assert_eq!(member(&user, Class::Dir), "other_u:object_r:user_tmp_t:s0");
        assert_eq!(member(&user, Class::File), "other_u:object_r:tmp_t:s0");
        assert_eq!(member(&user, Class::Process), "other_u:system_r:user_t:s0");
    }

    /// The new tables are checked as the others: ids in range, sorted and
    /// unique, levels valid, names well formed.
    #[test]
    fn hostile_new_object_tables_are_refused() {
        let bytes = with_new_objects();
        assert!(Checked::new(&bytes[..]).is_ok());
        let set = |at: usize, v: u32| {
            let mut b = bytes.clone();
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            b
        };
        #[track_caller]
        fn why(b: Vec<u8>) -> Invalid {
            Checked::new(&b[..]).err().expect("refused")
        }
        // The tables from the end: 2 names, 3 ranges, a member, a change.
        let names = bytes.len() - 2 * NAME_TRANS_BYTES;
        let ranges = names - 3 * RANGE_TRANS_BYTES;
        let members = ranges - RULE_BYTES;
        let changes = members - RULE_BYTES;
        assert_eq!(&bytes[names + 16..names + 20], b"a b\0");
        assert_eq!(u32_at(&bytes, changes + 12), Some(2), "bin_t");
        // The header's counts: a longer table runs past the end.
        for at in [84, 88, 92, 96] {
            let count = u32_at(&bytes, at).unwrap();
            assert_eq!(why(set(at, count + 1)).at, changes, "count at {at}");
            assert_eq!(why(set(at, MAX_RULES + 1)).at, at);
        }
        assert_eq!(
            why(set(96, 1)).why,
            "trailing bytes after the genfscon records"
        );
        let mut b = bytes.clone();
        b.pop();
        assert!(Checked::new(&b[..]).is_err(), "cut short");
        // Type changes and members: a type or a class out of range.
        for table in [changes, members] {
            for (k, v, at) in [(0, 5, 0), (4, 5, 0), (12, 5, 0), (8, CLASS_COUNT as u32, 8)] {
                assert_eq!(why(set(table + k, v)).at, table + at);
            }
        }
        // Range transitions: out of range, out of order, levels.
        let (init_bin, user_tmp_file, user_tmp_dir) = (
            ranges,
            ranges + RANGE_TRANS_BYTES,
            ranges + 2 * RANGE_TRANS_BYTES,
        );
        assert_eq!(u32_at(&bytes, init_bin), Some(0));
        // (user_t, user_tmp_t, process) before (user_t, tmp_t, file).
        let mut b = set(init_bin, 1);
        b[init_bin + 4..init_bin + 8].copy_from_slice(&4u32.to_le_bytes());
        assert_eq!(why(b).why, "range transitions not sorted or repeated");
        assert_eq!(u32_at(&bytes, user_tmp_file + 8), Some(0), "file");
        // A category no level statement allows (c5 of s1).
        let mut b = bytes.clone();
        b[init_bin + 16] |= 1 << 5;
        let not_allowed = "range transition with a level no level statement allows";
        assert_eq!(why(b).why, not_allowed);
        // Name transitions: ids, names, order.
        let (ab, z) = (names, names + NAME_TRANS_BYTES);
        let classes = CLASS_COUNT as u32;
        for (at, value, want) in [
            (
                init_bin,
                5,
                "range transition names a type that does not exist",
            ),
            (
                init_bin + 8,
                classes,
                "range transition names a class that does not exist",
            ),
            (
                user_tmp_dir + 8,
                0,
                "range transitions not sorted or repeated",
            ),
            (
                init_bin + 12,
                999,
                "range transition with a sensitivity above s255",
            ),
            (init_bin + 12, 3, not_allowed),
            // s1 - s0: the high level below the low one.
            (
                user_tmp_file + 12 + LEVEL_BYTES,
                0,
                "range transition whose high level does not dominate its low",
            ),
            (
                ab + 12,
                5,
                "name transition names a type that does not exist",
            ),
            (z + 4, 9, "name transition names a type that does not exist"),
            (
                ab + 8,
                classes,
                "name transition names a class that does not exist",
            ),
        ] {
            assert_eq!(why(set(at, value)).why, want, "{value} at {at}");
        }
        let patched = |at: usize, with: &[u8]| {
            let mut b = bytes.clone();
            b[at..at + with.len()].copy_from_slice(with);
            b
        };
        let bad_name = |at: usize, with: &[u8]| why(patched(at, with));
        let padding = "name transition's name not NUL-padded";
        let malformed = "name transition with a name empty, of 256 bytes or with a '/'";
        assert_eq!(bad_name(ab + 16, b"\0").why, malformed, "empty");
        assert_eq!(bad_name(ab + 16, b"a/").why, malformed, "a '/'");
        assert_eq!(bad_name(ab + 16 + 255, b"x").why, padding);
        assert_eq!(bad_name(ab + 16 + 10, b"x").why, padding);
        assert_eq!(bad_name(ab + 16, &[b'x'; 256]).why, malformed, "no NUL");
        let order = "name transitions not sorted or repeated";
        assert_eq!(bad_name(z + 16, b"a b").why, order, "repeated");
        assert_eq!(bad_name(z + 16, b"a").why, order, "descending");
        assert!(Checked::new(&patched(ab + 16, b"0")[..]).is_ok(), "0 < z");
    }

    /// `POLICY` with file system statements, compiled.
    fn with_file_systems() -> Vec<u8> {
        let text = format!(
            "{POLICY}\
             fs_use_xattr ext4 system_u:object_r:tmp_t:s0;\n\
             fs_use_task pipefs system_u:object_r:tmp_t:s0;\n\
             fs_use_trans tmpfs system_u:object_r:bin_t:s0;\n\
             genfscon proc / system_u:object_r:tmp_t:s0\n\
             genfscon proc /sys -d system_u:object_r:bin_t:s0\n\
             genfscon proc /sys -- system_u:object_r:user_tmp_t:s1\n\
             genfscon sysfs /devices system_u:object_r:bin_t:s0\n\
             policycap genfs_seclabel_symlinks;\n"
        );
        parse(&text).unwrap().compile().unwrap()
    }

    #[test]
    fn file_systems_as_security_fs_use_and_security_genfs_sid() {
        let bytes = with_file_systems();
        let checked = Checked::new(&bytes[..]).unwrap();
        let p = checked.view();
        let ty = |c: &Context| p.type_name(c.ty).to_vec();
        let (how, ctx) = p.fs_behaviour(b"ext4");
        assert_eq!(
            (how, ty(&ctx)),
            (Behaviour::Use(FsUse::Xattr), b"tmp_t".to_vec())
        );
        assert_eq!(p.fs_behaviour(b"pipefs").0, Behaviour::Use(FsUse::Task));
        assert_eq!(p.fs_behaviour(b"tmpfs").0, Behaviour::Use(FsUse::Trans));
        let (how, ctx) = p.fs_behaviour(b"proc");
        assert_eq!((how, ty(&ctx)), (Behaviour::Genfs, b"tmp_t".to_vec()));
        // sysfs has rules but none for its '/'; xfs none at all.
        assert_eq!(p.fs_behaviour(b"sysfs").0, Behaviour::None);
        assert_eq!(p.fs_behaviour(b"xfs").0, Behaviour::None);
        assert_eq!(p.fs_behaviour(b"ext").0, Behaviour::None);
        // The behaviour alone, without the context, is the same.
        for fs in [
            &b"ext4"[..],
            b"pipefs",
            b"tmpfs",
            b"proc",
            b"sysfs",
            b"xfs",
            b"ext",
        ] {
            assert_eq!(p.fs_labelling(fs), p.fs_behaviour(fs).0);
        }
        let genfs = |fs: &[u8], path: &[u8], mode| p.genfs(fs, path, mode).map(|c| ty(&c));
        assert_eq!(
            genfs(b"proc", b"/sys/kernel", 0o040755),
            Some(b"bin_t".to_vec())
        );
        assert_eq!(
            genfs(b"proc", b"/sys/kernel", 0o100644),
            Some(b"user_tmp_t".to_vec())
        );
        assert_eq!(
            genfs(b"proc", b"/12/sys", 0o100644),
            Some(b"user_tmp_t".to_vec())
        );
        assert_eq!(genfs(b"proc", b"/self", 0o100644), Some(b"tmp_t".to_vec()));
        assert_eq!(genfs(b"proc", b"/sys", 0o120777), Some(b"tmp_t".to_vec()));
        assert_eq!(genfs(b"sysfs", b"/devices/x", 0), Some(b"bin_t".to_vec()));
        assert_eq!(genfs(b"sysfs", b"/dev", 0), None);
        assert_eq!(p.policycaps(), policycap::GENFS_SECLABEL_SYMLINKS);
        let high = p.genfs(b"proc", b"/sys", 0o100644).unwrap();
        assert_eq!(high.low.sensitivity, 1);
    }

    #[test]
    fn hostile_file_system_tables_are_refused() {
        let bytes = with_file_systems();
        let set = |at: usize, v: &[u8]| {
            let mut b = bytes.clone();
            b[at..at + v.len()].copy_from_slice(v);
            b
        };
        let why = |b: Vec<u8>| Checked::new(&b[..]).err().expect("refused").why;
        // From the end: 4 genfscon records, before them 3 fs_use records.
        let genfs = bytes.len() - 4 * GENFS_BYTES;
        let uses = genfs - 3 * FS_USE_BYTES;
        assert_eq!(&bytes[uses..uses + 5], b"ext4\0");
        assert_eq!(&bytes[genfs..genfs + 5], b"proc\0");
        let fs_use = |i: usize| uses + i * FS_USE_BYTES;
        let rule = |i: usize| genfs + i * GENFS_BYTES;
        let path_at = |i: usize| rule(i) + MAX_FS_NAME + 1;
        let mode_at = |i: usize| path_at(i) + MAX_GENFS_PATH + 1;
        for (b, want) in [
            (set(fs_use(0), b"\0"), "fs_use file system name not 1 to 63 bytes of [A-Za-z0-9_.-], NUL-padded"),
            (set(fs_use(0), b"ex t"), "fs_use file system name not 1 to 63 bytes of [A-Za-z0-9_.-], NUL-padded"),
            (set(fs_use(0) + 6, b"x"), "fs_use file system name not 1 to 63 bytes of [A-Za-z0-9_.-], NUL-padded"),
            (set(fs_use(1), b"tmpfs\0"), "fs_use records not in ascending order of name, or one repeated"),
            (set(fs_use(0) + MAX_FS_NAME + 1, &4u32.to_le_bytes()), "fs_use behaviour neither 1, 2 nor 3"),
            (set(fs_use(0) + MAX_FS_NAME + 1, &0u32.to_le_bytes()), "fs_use behaviour neither 1, 2 nor 3"),
            (set(fs_use(0) + MAX_FS_NAME + 5 + 8, &99u32.to_le_bytes()), "context names a user, role or type that does not exist"),
            (set(path_at(0), b"s"), "genfscon path not 1 to 255 bytes starting with '/', NUL-padded"),
            (set(path_at(0) + MAX_GENFS_PATH, b"x"), "genfscon path not 1 to 255 bytes starting with '/', NUL-padded"),
            (set(mode_at(0), &0o170000u32.to_le_bytes()), "genfscon file type not 0 or one of S_IFMT's"),
            // A shorter path before a longer one.
            (set(path_at(0), b"/s\0\0"), "genfscon records not by file system name, longer paths first, then by path and file type, or one repeated"),
            (set(rule(3), b"aaaaa\0"), "genfscon records not by file system name, longer paths first, then by path and file type, or one repeated"),
            // A rule for any type beside one for a type, of one path.
            (set(mode_at(0), &0u32.to_le_bytes()), "two genfscon records for one path and file type"),
            (set(108, &(policycap::ALL + 1).to_le_bytes()), "unknown policy capability bits"),
        ] {
            assert_eq!(why(b), want);
        }
        // Counts one more: cut short.
        let mut b = bytes.clone();
        b[100..104].copy_from_slice(&4u32.to_le_bytes());
        assert!(Checked::new(&b[..]).is_err());
        let mut b = bytes.clone();
        b.push(0);
        assert_eq!(why(b), "trailing bytes after the genfscon records");
    }
}
