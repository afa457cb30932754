// SPDX-License-Identifier: GPL-2.0

//! The policy in force, the enforcing mode, and access decisions with
//! their audit lines.
//!
//! The policy is a checked compiled form (`compiled.rs`) with its own
//! decision cache (`decision_cache.rs`) in an RCU cell: hooks read it
//! without a lock and see the old policy or the new one, never a mix.
//! [`load`] checks every byte first; a bad policy is refused with `EINVAL`
//! and a log line saying at which byte and why, and the old one stays in
//! force.
//!
//! Decisions are on SIDs (`sidtab.rs`): [`Policy::allowed`] answers from
//! the cache, or computes the class's whole vector once on the contexts
//! behind the SIDs and keeps it. An initial SID's context is the policy's
//! own `sid` statement, so it follows a reload.
//!
//! The SID table's contexts name global users, roles and types
//! (`type_names.rs`), which each policy maps to its own when it is loaded,
//! so a new policy may add, rename, reorder and drop them: a context it
//! cannot read (a name is gone, or the context is not valid under it, as
//! SELinux's `policydb_context_isvalid()` says) reads as `sid
//! unlabeled`'s, and a later policy that has it again reads it as before.
//!
//! A denial is logged like SELinux's AVC messages, rate-limited:
//!
//! ```text
//! mlte: avc: denied { read } for pid=42 comm="cat" name="secret" ino=17
//!   scontext=user_u:user_r:user_t:s0 tcontext=system_u:object_r:secret_t:s0
//!   tclass=file permissive=0
//! ```
//!
//! Kernel-independent: the host tests run the same file.

use super::booleans::{BoolState, CondsNow};
use super::classes::Class;
use super::compiled::{Checked, Compiled, InitialSid};
use super::context::{Context, ContextView, LevelView, Shown};
use super::decision_cache::DecisionCache;
use super::sidtab::{self, Sid, StoredContext};
use super::type_names::{self, Kind};
use crate::access::comm_str;
use crate::context::MaySleep;
use crate::error::{Error, Result, EACCES, EBUSY, EINVAL, EPERM};
use crate::objects::{Dentry, DentryView, Inode, InodeView};
use crate::platform::{self, Bytes, OwnedBox, RcuBox, Table};
use core::fmt;
use core::ops::Deref;
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A policy as loaded: its checked bytes, its name maps, its decision
/// cache and its cache of new objects' SIDs.
struct Loaded {
    checked: Checked<Bytes>,
    maps: Maps,
    cache: OwnedBox<DecisionCache>,
    /// The SIDs of new objects (`type_transition`s), by (subject SID,
    /// target SID, class): the same structure as the decision cache, whose
    /// entries hold a SID's number instead of a vector
    /// ([`Policy::cached_new_sid`]).
    new_sids: OwnedBox<DecisionCache>,
    bools: BoolState,
    /// Which load since boot this is (1 the first).
    number: u64,
}

/// The global id of each of a policy's users, roles or types, and back.
///
/// # Invariants
///
/// `global` holds the global ids of the policy's names of one kind, in its
/// order; `by_global` the pairs (global id, local id), sorted by global id.
struct NameMap {
    global: Table<u32>,
    by_global: Table<(u32, u32)>,
}

impl NameMap {
    /// The map of the `count` names that `name` gives, of `kind`: each
    /// name gets its global id. May allocate.
    fn build<'n>(
        cx: &MaySleep,
        kind: Kind,
        count: u32,
        name: impl Fn(u32) -> &'n [u8],
    ) -> Result<NameMap> {
        let count = count as usize;
        let mut global = platform::table_filled(cx, count, 0u32)?;
        let mut by_global = platform::table_filled(cx, count, (0u32, 0u32))?;
        for (id, (g, pair)) in global.iter_mut().zip(by_global.iter_mut()).enumerate() {
            let id = u32::try_from(id).map_err(|_| EINVAL)?;
            *g = type_names::intern(cx, kind, name(id))?;
            *pair = (*g, id);
        }
        by_global.sort_unstable();
        // INVARIANT: both filled for every name.
        Ok(NameMap { global, by_global })
    }

    /// The global id of local id `id` (`u32::MAX`, no one's, out of range).
    #[inline]
    fn global(&self, id: u32) -> u32 {
        self.global.get(id as usize).copied().unwrap_or(u32::MAX)
    }

    /// The local id whose global id is `global`, if the policy has one.
    fn local(&self, global: u32) -> Option<u32> {
        let i = self
            .by_global
            .binary_search_by_key(&global, |&(g, _)| g)
            .ok()?;
        self.by_global.get(i).map(|&(_, id)| id)
    }
}

/// A policy's three name maps.
struct Maps {
    users: NameMap,
    roles: NameMap,
    types: NameMap,
}

impl Maps {
    /// The maps of `policy`'s users, roles and types. May allocate.
    fn build(cx: &MaySleep, policy: &Compiled<'_>) -> Result<Maps> {
        Ok(Maps {
            users: NameMap::build(cx, Kind::User, policy.users(), |id| policy.user_name(id))?,
            roles: NameMap::build(cx, Kind::Role, policy.roles(), |id| policy.role_name(id))?,
            types: NameMap::build(cx, Kind::Type, policy.types(), |id| policy.type_name(id))?,
        })
    }

    /// The map of `kind`.
    fn of(&self, kind: Kind) -> &NameMap {
        match kind {
            Kind::User => &self.users,
            Kind::Role => &self.roles,
            Kind::Type => &self.types,
        }
    }
}

/// The policy in force.
static POLICY: RcuBox<Loaded> = RcuBox::new();

/// The policy in force, as a hook sees it ([`with`]): the compiled form
/// (which it derefs to) and the decisions on SIDs.
pub(crate) struct Policy<'a> {
    compiled: Compiled<'a>,
    maps: &'a Maps,
    cache: &'a DecisionCache,
    new_sids: &'a DecisionCache,
    bools: &'a BoolState,
    number: u64,
}

impl<'a> Deref for Policy<'a> {
    type Target = Compiled<'a>;

    #[inline(always)]
    fn deref(&self) -> &Compiled<'a> {
        &self.compiled
    }
}

/// A SID's context as a policy reads it ([`Policy::context`]): the
/// policy's user, role and type, and the levels in place.
#[derive(Clone, Copy)]
pub(crate) struct Resolved<'a> {
    user: u32,
    role: u32,
    ty: u32,
    low: LevelView<'a>,
    high: LevelView<'a>,
}

impl Resolved<'_> {
    /// The context, copied.
    pub(crate) fn context(&self) -> Context {
        Context {
            user: self.user,
            role: self.role,
            ty: self.ty,
            low: *self.low.level(),
            high: *self.high.level(),
        }
    }
}

impl ContextView for Resolved<'_> {
    fn user(&self) -> u32 {
        self.user
    }

    fn role(&self) -> u32 {
        self.role
    }

    fn ty(&self) -> u32 {
        self.ty
    }

    fn low(&self) -> LevelView<'_> {
        self.low
    }

    fn high(&self) -> LevelView<'_> {
        self.high
    }
}

impl<'a> Policy<'a> {
    /// The context of `sid` under this policy: an initial SID's from the
    /// policy's `sid` statements; another's from the SID table, if this
    /// policy has its user, role and type and finds it valid; `sid
    /// unlabeled`'s otherwise (also for a number never given out).
    #[inline]
    pub(crate) fn context(&self, sid: Sid) -> Resolved<'a> {
        let initial = match sid.as_initial() {
            Some(initial) => initial,
            None => match self.resolve(sid) {
                Some(resolved) => return resolved,
                None => InitialSid::Unlabeled,
            },
        };
        let sc = self.compiled.sid_view(initial);
        Resolved {
            user: sc.context.user,
            role: sc.context.role,
            ty: sc.context.ty,
            low: LevelView::new(&sc.context.low, sc.low_len()),
            high: LevelView::new(&sc.context.high, sc.high_len()),
        }
    }

    /// The global id (`type_names.rs`) of the user, role or type (`kind`)
    /// this policy names `name`, if it declares one: what an audit rule's
    /// `subj_type=NAME` compares, and still means after a reload that
    /// keeps the name.
    pub(crate) fn global_id(&self, kind: Kind, name: &[u8]) -> Option<u32> {
        let local = match kind {
            Kind::User => self.compiled.user_id(name),
            Kind::Role => self.compiled.role_id(name),
            Kind::Type => self.compiled.type_id(name),
        }?;
        Some(self.maps.of(kind).global(local))
    }

    /// The global id of the user, role or type (`kind`) of `sid`'s context
    /// under this policy ([`Policy::context`]).
    pub(crate) fn global_of(&self, kind: Kind, sid: Sid) -> u32 {
        let c = self.context(sid);
        let local = match kind {
            Kind::User => c.user,
            Kind::Role => c.role,
            Kind::Type => c.ty,
        };
        self.maps.of(kind).global(local)
    }

    /// The text of `sid`'s context: an initial SID's from this policy; a
    /// table SID's as it was interned (its names and its range), also when
    /// this policy cannot read it, as SELinux keeps the text of a context
    /// a reload made invalid (decisions then use `sid unlabeled`'s,
    /// [`Policy::context`]).
    pub(crate) fn show(&self, sid: Sid) -> Shown<'a> {
        let stored = sidtab::stored(sid).and_then(|s| {
            Some((
                type_names::name(Kind::User, s.user)?,
                type_names::name(Kind::Role, s.role)?,
                type_names::name(Kind::Type, s.ty)?,
                s,
            ))
        });
        if let Some((user, role, ty, s)) = stored {
            return Shown::new(user, role, ty, &s.low, &s.high);
        }
        let initial = sid.as_initial().unwrap_or(InitialSid::Unlabeled);
        let c = &self.compiled.sid_view(initial).context;
        Shown::new(
            self.compiled.user_name(c.user),
            self.compiled.role_name(c.role),
            self.compiled.type_name(c.ty),
            &c.low,
            &c.high,
        )
    }

    /// A table SID's context, if this policy can read it: it has its
    /// names, and the context is valid under it.
    fn resolve(&self, sid: Sid) -> Option<Resolved<'a>> {
        let stored = sidtab::stored(sid)?;
        let resolved = Resolved {
            user: self.maps.users.local(stored.user)?,
            role: self.maps.roles.local(stored.role)?,
            ty: self.maps.types.local(stored.ty)?,
            low: LevelView::new(&stored.low, stored.low_len()),
            high: LevelView::new(&stored.high, stored.high_len()),
        };
        self.compiled.validate(&resolved).ok()?;
        Some(resolved)
    }

    /// `sid`'s user, role and type with `range_of`'s levels, as SELinux's
    /// `security_sid_mls_copy()`; `None` when this policy does not find
    /// that context valid.
    pub(crate) fn mls_copy(&self, sid: Sid, range_of: Sid) -> Option<StoredContext> {
        let range = self.context(range_of);
        let ctx = Context {
            low: *range.low.level(),
            high: *range.high.level(),
            ..self.context(sid).context()
        };
        self.compiled.validate(&ctx).ok()?;
        Some(self.store(&ctx))
    }

    /// `ctx` (with this policy's ids) as the SID table keeps it.
    pub(crate) fn store(&self, ctx: &Context) -> StoredContext {
        StoredContext::new(
            self.maps.users.global(ctx.user),
            self.maps.roles.global(ctx.role),
            self.maps.types.global(ctx.ty),
            ctx.low,
            ctx.high,
        )
    }

    /// The permissions of `class` that `s` has on `o` and whose grant is
    /// not logged (allowed, and no `auditallow` names them): from the
    /// cache, or computed and kept. A check for other permissions takes
    /// the slow path ([`Policy::vectors`]).
    #[inline(always)]
    pub(crate) fn allowed_quietly(&self, s: Sid, o: Sid, class: Class) -> u32 {
        match self.cache.lookup(s, o, class) {
            Some(quiet) => quiet,
            None => self.compute(s, o, class),
        }
    }

    /// [`Policy::allowed_quietly`] on a miss. Computed and inserted in
    /// the caller's read-side section, which a commit of booleans waits
    /// for before it empties the cache ([`commit_bools`]).
    #[inline(never)]
    fn compute(&self, s: Sid, o: Sid, class: Class) -> u32 {
        let all = class.all_perms();
        let (sc, oc) = (self.context(s), self.context(o));
        let conds = &self.conds_now();
        let allowed = all & !self.compiled.denied(&sc, &oc, class, all, conds);
        let quiet = allowed & !self.compiled.auditallow(sc.ty, oc.ty, class, conds);
        self.cache.insert(s, o, class, quiet);
        quiet
    }

    /// The values of the policy's conditions, all of one commit; none
    /// copied when the policy has no conditions.
    #[inline(always)]
    fn conds_now(&self) -> CondsNow {
        match self.compiled.cond_count() {
            0 => CondsNow::None,
            count => CondsNow::Of(self.bools.snapshot(count)),
        }
    }

    /// The booleans' state.
    pub(crate) fn bool_state(&self) -> &'a BoolState {
        self.bools
    }

    /// Which load since boot this policy is: it tells this loaded policy
    /// from every other.
    pub(crate) fn identity(&self) -> u64 {
        self.number
    }

    /// Makes the pending boolean values current and computes the
    /// conditions again ([`commit_bools`]'s first step). Does not sleep.
    fn commit_bool_values(&self) {
        let (old, values) = (self.bools.current(), self.bools.pending());
        let conds = self.compiled.cond_values(&values);
        // As SELinux's AUDIT_MAC_CONFIG_CHANGE record, one per boolean
        // the commit changes.
        for id in 0..self.compiled.bool_count() {
            let (was, now) = (old.get(id), values.get(id));
            if was != now {
                let name = core::str::from_utf8(self.compiled.bool_name(id)).unwrap_or("?");
                platform::pr_info!(
                    "mlte: bool={name} val={} old_val={}\n",
                    u8::from(now),
                    u8::from(was)
                );
            }
        }
        // Neither preempted nor interrupted while the state is half
        // written: readers, in interrupt context too (a capable() check),
        // wait for the commit's end (`BoolState::snapshot`).
        platform::without_interrupts(|| self.bools.commit(&values, &conds));
        SEQNO.fetch_add(1, Ordering::Relaxed);
    }

    /// The decision of `s` on `o` in `class`, computed (not cached): the
    /// rules and the class's constraints on the contexts behind the SIDs.
    pub(crate) fn vectors(&self, s: Sid, o: Sid, class: Class) -> Vectors {
        let all = class.all_perms();
        let (s, o) = (self.context(s), self.context(o));
        let conds = &self.conds_now();
        Vectors {
            allowed: all & !self.compiled.denied(&s, &o, class, all, conds),
            auditallow: self.compiled.auditallow(s.ty, o.ty, class, conds),
            dontaudit: self.compiled.dontaudit(s.ty, o.ty, class, conds),
            permissive: self.compiled.permissive(s.ty),
        }
    }

    /// The SID of the context a new object of `class` gets that `s`
    /// creates with `t`: the one this policy cached for the triple, `s`
    /// itself when `compute` gives `s`'s own context, or else the context
    /// `compute` gives, to be interned ([`NewSid::sid`]),
    /// which also caches its SID when it is valid and no object name can
    /// change it (no name-based `type_transition` for the triple's types).
    #[inline]
    pub(crate) fn new_sid(
        &self,
        s: Sid,
        t: Sid,
        class: Class,
        compute: impl FnOnce(&Self) -> Result<Context>,
    ) -> Result<NewSid> {
        if let Some(sid) = self.new_sids.lookup(s, t, class).and_then(Sid::from_raw) {
            return Ok(NewSid::Known(sid));
        }
        let ctx = compute(self)?;
        let subject = self.context(s);
        let cacheable = self.compiled.validate(&ctx).is_ok()
            && !self
                .compiled
                .has_name_transitions(subject.ty, self.context(t).ty, class);
        // The subject's own context: its SID (an exec that changes
        // nothing keeps the task's SID, an initial one included).
        if ctx == subject.context() {
            if cacheable {
                self.new_sids.insert(s, t, class, s.raw());
            }
            return Ok(NewSid::Known(s));
        }
        Ok(NewSid::Computed {
            ctx: self.store(&ctx),
            cache_as: cacheable.then_some((self.number, s, t, class)),
        })
    }

    /// New SIDs this policy computed and cached (for the tests).
    #[cfg(test)]
    pub(crate) fn new_sids_cached(&self) -> u64 {
        self.new_sids.misses()
    }

    /// Decisions computed (cache misses) since this policy was loaded.
    pub(crate) fn misses(&self) -> u64 {
        self.cache.misses()
    }
}

/// A new object's SID as a policy found it ([`Policy::new_sid`]).
#[allow(
    clippy::large_enum_variant,
    reason = "a local of one call, used at once; boxing it would allocate"
)]
pub(crate) enum NewSid {
    /// Cached.
    Known(Sid),
    /// Computed: a context to intern outside the policy's read-side
    /// section.
    Computed {
        /// The context.
        ctx: StoredContext,
        /// The policy (its [`Policy::identity`]) and the triple whose new
        /// SID this is, if it may be cached.
        cache_as: Option<(u64, Sid, Sid, Class)>,
    },
}

impl NewSid {
    /// The SID: a computed context interned (may allocate), and cached
    /// for its triple if the policy that computed it is still in force.
    pub(crate) fn sid(&self, cx: &MaySleep) -> Result<Sid> {
        self.sid_by(|ctx| sidtab::intern(cx, ctx))
    }

    /// [`NewSid::sid`] where nothing may sleep
    /// ([`sidtab::intern_atomic`]).
    pub(crate) fn sid_atomic(&self) -> Result<Sid> {
        self.sid_by(sidtab::intern_atomic)
    }

    /// The SID, a computed context interned by `intern`.
    fn sid_by(&self, intern: impl FnOnce(&StoredContext) -> Result<Sid>) -> Result<Sid> {
        let (ctx, cache_as) = match self {
            NewSid::Known(sid) => return Ok(*sid),
            NewSid::Computed { ctx, cache_as } => (ctx, cache_as),
        };
        let sid = intern(ctx)?;
        if let Some((number, s, t, class)) = *cache_as {
            with(|p| {
                if let Some(p) = p.filter(|p| p.number == number) {
                    p.new_sids.insert(s, t, class, sid.raw());
                }
            });
        }
        Ok(sid)
    }
}

/// A decision, as SELinux's `struct av_decision`: the permissions
/// allowed, those whose grant is logged (`auditallow`), those whose denial
/// is not (`dontaudit`), and whether the subject's domain is permissive.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Vectors {
    pub(crate) allowed: u32,
    pub(crate) auditallow: u32,
    pub(crate) dontaudit: u32,
    pub(crate) permissive: bool,
}

/// Whether denials are enforced (else only logged).
static ENFORCING: AtomicBool = AtomicBool::new(true);

/// Set while a policy is being loaded: loads do not overlap.
static LOADING: AtomicBool = AtomicBool::new(false);

/// Denials since boot (also those only logged in permissive mode).
static DENIALS: AtomicU64 = AtomicU64::new(0);

/// Policies loaded since boot.
static LOADS: AtomicU64 = AtomicU64::new(0);

/// Policy loads and boolean commits since boot: SELinux's sequence number
/// (`latest_granting`), which `mlte/access` answers.
static SEQNO: AtomicU64 = AtomicU64::new(0);

/// The sequence number: loads and boolean commits since boot.
pub(crate) fn seqno() -> u64 {
    SEQNO.load(Ordering::Relaxed)
}

/// Reads of an inode label that failed since boot (`ENOMEM`, `EIO`), each
/// access then decided as `sid unlabeled` ([`label_read_failed`]).
static LABEL_READ_ERRORS: AtomicU64 = AtomicU64::new(0);

/// Calls `f` with the policy in force (`None` before the first load),
/// under RCU: `f` must not sleep, and cannot capture a sleep proof
/// (`Send`, as `RcuCell::read`).
#[inline(always)]
pub(crate) fn with<R>(f: impl FnOnce(Option<&Policy<'_>>) -> R + Send) -> R {
    POLICY.read(|p| {
        f(p.map(|p| Policy {
            compiled: p.checked.view(),
            maps: &p.maps,
            cache: &p.cache,
            new_sids: &p.new_sids,
            bools: &p.bools,
            number: p.number,
        })
        .as_ref())
    })
}

/// Whether the decision cache of the policy in force says that `s` has
/// `perms` on `o` in `class` quietly (allowed, no grant to log); `true`
/// also with no policy, which allows everything. `false` when the cache
/// does not know: [`check`] then decides. The hooks' fast path: one cache
/// lookup in one read-side section, with no [`Policy`] view built.
#[inline(always)]
pub(crate) fn allowed_by_cache(s: Sid, o: Sid, class: Class, perms: u32) -> bool {
    POLICY.read(move |p| match p {
        None => true,
        Some(p) => p
            .cache
            .lookup(s, o, class)
            .is_some_and(|quiet| perms & !quiet == 0),
    })
}

/// Whether denials are enforced.
pub(crate) fn enforcing() -> bool {
    ENFORCING.load(Ordering::Relaxed)
}

/// Sets the mode, logging a change.
pub(crate) fn set_enforcing(on: bool) {
    if ENFORCING.swap(on, Ordering::Relaxed) != on {
        let mode = if on { "enforcing" } else { "permissive" };
        platform::pr_info!("mlte: now {mode}\n");
    }
}

/// What `mlte/status` counts since boot.
pub(crate) struct Counts {
    /// Denials (also those only logged in permissive mode).
    pub(crate) denials: u64,
    /// Policies loaded.
    pub(crate) loads: u64,
    /// Failed reads of inode labels.
    pub(crate) label_read_errors: u64,
}

/// The counts since boot.
pub(crate) fn counts() -> Counts {
    Counts {
        denials: DENIALS.load(Ordering::Relaxed),
        loads: LOADS.load(Ordering::Relaxed),
        label_read_errors: LABEL_READ_ERRORS.load(Ordering::Relaxed),
    }
}

/// Counts a failed read (`err`, from `getxattr`) of inode `ino`'s label:
/// the access is decided as `sid unlabeled`. Logs it (rate-limited) when
/// `first`: the inode's label was unset, not already provisional, so that
/// a label that stays unreadable is logged once, not at every lookup.
#[cold]
pub(crate) fn label_read_failed(ino: u64, err: Error, first: bool) {
    LABEL_READ_ERRORS.fetch_add(1, Ordering::Relaxed);
    if first && platform::ratelimit_audit() {
        platform::pr_warn!(
            "mlte: the label of inode {ino} could not be read (error {}): decided as sid unlabeled\n",
            err.to_errno()
        );
    }
}

/// Replaces the policy with the compiled form `bytes`. A bad one is
/// refused with `EINVAL` and a log line; the old one stays in force.
///
/// The new policy may add, rename, reorder and drop types: labels hold
/// SIDs whose contexts name global types (`type_names.rs`), and a context
/// whose type or level the new policy does not have reads as `sid
/// unlabeled`'s under it. Sleeps.
pub(crate) fn load(cx: &MaySleep, bytes: &[u8]) -> Result {
    if LOADING.swap(true, Ordering::Acquire) {
        platform::pr_warn!("mlte: policy load refused: another load is in progress\n");
        return Err(EBUSY);
    }
    let result = load_exclusive(cx, bytes);
    LOADING.store(false, Ordering::Release);
    result
}

/// [`load`], with no other load running.
fn load_exclusive(cx: &MaySleep, bytes: &[u8]) -> Result {
    let checked = match Checked::new(platform::bytes_from(bytes)?) {
        Ok(checked) => checked,
        Err(e) => {
            platform::pr_warn!(
                "mlte: policy rejected: byte {}: {}; previous policy kept\n",
                e.at,
                e.why
            );
            return Err(EINVAL);
        }
    };
    let new = checked.view();
    let maps = Maps::build(cx, &new)?;
    let count = new.types();
    let cache = platform::zeroed_box::<DecisionCache>(cx)?;
    let new_sids = platform::zeroed_box::<DecisionCache>(cx)?;
    // As SELinux's `security_preserve_bools()`: a boolean the policy in
    // force has too keeps its current value.
    let mut values = new.default_bools();
    with(|old| {
        if let Some(old) = old {
            let current = old.bools.current();
            for id in 0..new.bool_count() {
                if let Some(old_id) = old.bool_id(new.bool_name(id)) {
                    values.set(id, current.get(old_id));
                }
            }
        }
    });
    let bools = BoolState::new(&values, &new.cond_values(&values));
    // Room for the contexts of messages, interned where nothing may sleep.
    sidtab::reserve(cx)?;
    // Loads do not overlap: no other load counts in between.
    let number = LOADS.load(Ordering::Relaxed) + 1;
    POLICY.replace(Loaded {
        checked,
        maps,
        cache,
        new_sids,
        bools,
        number,
    })?;
    LOADS.fetch_add(1, Ordering::Relaxed);
    SEQNO.fetch_add(1, Ordering::Relaxed);
    let mode = if enforcing() {
        "enforcing"
    } else {
        "permissive"
    };
    platform::pr_info!(
        "mlte: policy loaded: {count} types, {} bytes, {mode}\n",
        bytes.len()
    );
    Ok(())
}

/// Makes the pending boolean values of the policy in force current, as
/// selinuxfs's `commit_pending_bools`: the conditions are computed again,
/// then, once every decision made under the old values is in the decision
/// cache (an RCU grace period: a decision is computed and inserted in one
/// read-side section), the cache is emptied, so that none of them is used
/// again. Commits and loads do not overlap (`EBUSY`). `EINVAL` with no
/// policy. Sleeps.
pub(crate) fn commit_bools(cx: &MaySleep) -> Result {
    if LOADING.swap(true, Ordering::Acquire) {
        return Err(EBUSY);
    }
    let committed = with(|p| p.map(|p| p.commit_bool_values()));
    if committed.is_some() {
        platform::synchronize_rcu(cx);
        with(|p| {
            if let Some(p) = p {
                p.cache.clear();
            }
        });
    }
    LOADING.store(false, Ordering::Release);
    committed.ok_or(EINVAL)
}

/// What a decision is about, for the audit line.
#[derive(Clone, Copy)]
pub(crate) enum Target<'a> {
    /// An inode reached through a dentry: its name and number.
    Dentry(&'a Dentry),
    /// An inode without a dentry at hand: its number.
    Inode(&'a Inode),
    /// A task: its pid.
    Task(i32),
    /// A capability: its number.
    Capability(u32),
    /// Nothing to log: the caller asked for no audit (`CAP_OPT_NOAUDIT`),
    /// so neither a denial nor an `auditallow` grant is logged.
    Unaudited,
    /// Nothing more to say (a socket, an IPC object, the subject itself).
    None,
}

/// The names of the permissions in `perms` of `class`, `{ a b }`.
struct PermNames(Class, u32);

impl fmt::Display for PermNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (bit, name) in self.0.entry().1.iter().enumerate() {
            if self.1 & (1u32 << bit) != 0 {
                write!(f, " {name}")?;
            }
        }
        f.write_str(" }")
    }
}

/// May subject `s` have `perms` (bits of `class`) on object `o`, under
/// `policy`? A denial is counted and logged (rate-limited) and, when
/// enforcing, returned as `EACCES`. Does not sleep.
#[inline(always)]
pub(crate) fn check(
    policy: &Policy<'_>,
    s: Sid,
    o: Sid,
    class: Class,
    perms: u32,
    target: Target<'_>,
) -> Result {
    if perms & !policy.allowed_quietly(s, o, class) == 0 {
        return Ok(());
    }
    check_slow(policy, s, o, class, perms, target)
}

/// The verdict on `perms` that are not all allowed quietly, as SELinux's
/// `avc_has_perm()` and `avc_audit()`: a grant an `auditallow` names is
/// logged ("granted"); a denial is counted, logged unless a `dontaudit`
/// names it (rate-limited), and `EACCES` when enforcing and the subject's
/// domain is not `permissive`.
#[cold]
fn check_slow(
    policy: &Policy<'_>,
    s: Sid,
    o: Sid,
    class: Class,
    perms: u32,
    target: Target<'_>,
) -> Result {
    let v = policy.vectors(s, o, class);
    let denied = perms & !v.allowed;
    let unaudited = matches!(target, Target::Unaudited);
    if denied == 0 {
        let audited = if unaudited { 0 } else { perms & v.auditallow };
        if audited != 0 && platform::ratelimit_audit() {
            report(policy, s, o, class, audited, target, None);
        }
        return Ok(());
    }
    DENIALS.fetch_add(1, Ordering::Relaxed);
    let enforced = enforcing() && !v.permissive;
    let audited = if unaudited { 0 } else { denied & !v.dontaudit };
    if audited != 0 && platform::ratelimit_audit() {
        report(policy, s, o, class, audited, target, Some(enforced));
    }
    if enforced {
        Err(EACCES)
    } else {
        Ok(())
    }
}

/// Logs one decision, as SELinux's AVC line: a denial (`enforced` says
/// whether it was), or a grant (`None`) that an `auditallow` names.
#[cold]
fn report(
    policy: &Policy<'_>,
    s: Sid,
    o: Sid,
    class: Class,
    perms: u32,
    target: Target<'_>,
    enforced: Option<bool>,
) {
    let (pid, comm) = platform::current_task();
    let comm = comm_str(&comm);
    let perms = PermNames(class, perms);
    let (scontext, tcontext) = (policy.show(s), policy.show(o));
    let tclass = class.name();
    let verdict = if enforced.is_some() {
        "denied"
    } else {
        "granted"
    };
    // SELinux's line has `permissive=` for denials only.
    let permissive = Permissive(enforced);
    let line = |object: fmt::Arguments<'_>| {
        // The kernel's `pr_warn!` formats its own `Display`; these types
        // have `core`'s, which `format_args!` reaches.
        platform::pr_warn!(
            "{}\n",
            format_args!(
                "mlte: avc: {verdict} {perms} for pid={pid} comm=\"{comm}\"{object} \
                 scontext={scontext} tcontext={tcontext} tclass={tclass}{permissive}"
            )
        )
    };
    match target {
        Target::Dentry(dentry) => dentry.with_name(|name| {
            let name = core::str::from_utf8(name).unwrap_or("?");
            let ino = dentry.inode().map_or(0, |i| i.ino());
            line(format_args!(" name=\"{name}\" ino={ino}"))
        }),
        Target::Inode(inode) => line(format_args!(" ino={}", inode.ino())),
        Target::Task(target) => line(format_args!(" tpid={target}")),
        Target::Capability(cap) => line(format_args!(" capability={cap}")),
        Target::None | Target::Unaudited => line(format_args!("")),
    }
}

/// SELinux's `security_validate_transition()`: may a task in `task`
/// relabel an object of `class` from `old` to `new`, by the class's
/// `validatetrans` statements? A refusal is logged (rate-limited) as
/// SELinux's `op=security_validate_transition seresult=denied` record and,
/// when enforcing, is `EPERM` (a permissive domain does not change it, as
/// in SELinux). Does not sleep.
pub(crate) fn validate_transition(
    policy: &Policy<'_>,
    old: Sid,
    new: Sid,
    task: Sid,
    class: Class,
) -> Result {
    let valid = policy.compiled.validate_transition(
        &policy.context(old),
        &policy.context(new),
        &policy.context(task),
        class,
    );
    if valid {
        return Ok(());
    }
    if platform::ratelimit_audit() {
        let (old, new, task) = (policy.show(old), policy.show(new), policy.show(task));
        let tclass = class.name();
        platform::pr_warn!(
            "{}\n",
            format_args!(
                "mlte: op=security_validate_transition seresult=denied oldcontext={old} \
                 newcontext={new} taskcontext={task} tclass={tclass}"
            )
        );
    }
    if enforcing() {
        Err(EPERM)
    } else {
        Ok(())
    }
}

/// The ` permissive=N` of a denial's line (nothing for a grant's).
struct Permissive(Option<bool>);

impl fmt::Display for Permissive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(enforced) => write!(f, " permissive={}", u8::from(!enforced)),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mlte::classes::perm;
    use crate::mlte::compiled::tests::POLICY as TEXT;
    use crate::mlte::context::Context;
    use crate::mlte::policy_text::parse;

    fn load(bytes: &[u8]) -> Result {
        super::load(&crate::harness::cx(), bytes)
    }

    /// One test: the policy cell is global.
    #[test]
    fn load_refuses_bad_policies_and_keeps_the_old_one() {
        let good = parse(TEXT).unwrap().compile().unwrap();
        assert_eq!(load(&good), Ok(()));
        let sid = |text: &[u8]| {
            let ctx = with(|p| {
                let p = p.unwrap();
                p.store(&Context::parse(text, p).unwrap())
            });
            sidtab::intern(&crate::harness::cx(), &ctx).unwrap()
        };
        let (user, tmp, tmp_hi) = (
            sid(b"system_u:system_r:user_t:s1"),
            sid(b"system_u:object_r:tmp_t:s1"),
            sid(b"system_u:object_r:tmp_t:s2"),
        );
        let decide = || {
            with(|p| {
                let p = p.unwrap();
                let read = perm(Class::File, "read");
                (
                    check(p, user, tmp, Class::File, read, Target::None),
                    check(p, user, tmp_hi, Class::File, read, Target::None),
                )
            })
        };
        assert_eq!(decide(), (Ok(()), Err(EACCES)));
        let Counts { denials, loads, .. } = counts();
        assert!(denials >= 1 && loads >= 1);
        // Malformed, truncated, random: refused, and decisions unchanged.
        let mut bad = good.clone();
        bad[4] = 99;
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let random: Vec<u8> = (0..good.len())
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u8
            })
            .collect();
        for b in [&bad[..], &good[..good.len() / 2], &random[..], &[][..]] {
            assert_eq!(load(b), Err(EINVAL));
            assert_eq!(decide(), (Ok(()), Err(EACCES)));
        }
        let added = TEXT.replace("type user_tmp_t;", "type user_tmp_t; type extra_t;");
        assert_eq!(load(&parse(&added).unwrap().compile().unwrap()), Ok(()));
        assert_eq!(decide(), (Ok(()), Err(EACCES)));
        // Repeats come from the cache: nothing more is computed.
        let misses = with(|p| p.unwrap().misses());
        for _ in 0..10 {
            assert_eq!(decide(), (Ok(()), Err(EACCES)));
        }
        assert_eq!(with(|p| p.unwrap().misses()), misses);
        // A reload brings its own cache: no decision of the old policy
        // survives it, and initial SIDs take the new policy's contexts.
        let no_read = added.replace("allow user_t tmp_t : file { read write };", "");
        assert_eq!(load(&parse(&no_read).unwrap().compile().unwrap()), Ok(()));
        assert_eq!(decide(), (Err(EACCES), Err(EACCES)));
        let file = Sid::initial(InitialSid::File);
        let moved = no_read.replace(
            "sid file system_u:object_r:tmp_t:s0",
            "sid file system_u:object_r:bin_t:s0",
        );
        assert_eq!(load(&parse(&moved).unwrap().compile().unwrap()), Ok(()));
        assert_eq!(
            with(|p| {
                let p = p.unwrap();
                p.type_name(p.context(file).context().ty).to_vec()
            }),
            b"bin_t"
        );
        assert_eq!(load(&parse(&added).unwrap().compile().unwrap()), Ok(()));
        assert_eq!(decide(), (Ok(()), Err(EACCES)));
        // A reload may rename, reorder and drop types: a context whose type
        // is gone reads as `sid unlabeled`'s (system_u:object_r:tmp_t:s0 here), and comes back
        // with a policy that has it.
        let name_of = |sid: Sid| {
            with(|p| {
                let p = p.unwrap();
                let c = p.context(sid).context();
                (p.type_name(c.ty).to_vec(), c.low.sensitivity)
            })
        };
        assert_eq!(name_of(user), (b"user_t".to_vec(), 1));
        let renamed = added
            .replace("user_t", "person_t")
            .replace("type init_t; type person_t;", "type person_t; type init_t;");
        assert_eq!(load(&parse(&renamed).unwrap().compile().unwrap()), Ok(()));
        assert_eq!(name_of(user), (b"tmp_t".to_vec(), 0), "renamed: unlabeled");
        let text = |sid| with(|p| p.unwrap().show(sid).to_string());
        assert_eq!(
            text(user),
            "system_u:system_r:user_t:s1",
            "its text is kept"
        );
        assert_eq!(
            text(Sid::initial(InitialSid::Kernel)),
            "system_u:system_r:init_t:s0"
        );
        assert_eq!(name_of(tmp_hi), (b"tmp_t".to_vec(), 2), "kept, at its id");
        assert_eq!(decide(), (Err(EACCES), Err(EACCES)));
        // A level the new policy does not allow reads as unlabeled too.
        let fewer = added
            .replace("level s2:c0.c2;", "")
            .replace("range s0 - s2:c0.c2", "range s0 - s1:c0.c2");
        assert_eq!(load(&parse(&fewer).unwrap().compile().unwrap()), Ok(()));
        assert_eq!(name_of(tmp_hi), (b"tmp_t".to_vec(), 0), "s2 gone");
        assert_eq!(name_of(tmp), (b"tmp_t".to_vec(), 1));
        assert_eq!(load(&parse(&added).unwrap().compile().unwrap()), Ok(()));
        assert_eq!(name_of(user), (b"user_t".to_vec(), 1), "back");
        assert_eq!(decide(), (Ok(()), Err(EACCES)));
        // Users and roles too: a context whose user is gone, or that the
        // new policy does not find valid (system_r without user_t), reads
        // as unlabeled and keeps its text; it comes back with them.
        let no_user = added.replace("system_u", "admin_u");
        assert_eq!(load(&parse(&no_user).unwrap().compile().unwrap()), Ok(()));
        assert_eq!(name_of(user), (b"tmp_t".to_vec(), 0), "user gone");
        assert_eq!(text(user), "system_u:system_r:user_t:s1");
        let no_type = added.replace("types { init_t user_t }", "types init_t");
        assert_eq!(load(&parse(&no_type).unwrap().compile().unwrap()), Ok(()));
        assert_eq!(
            name_of(user),
            (b"tmp_t".to_vec(), 0),
            "role without the type"
        );
        assert_eq!(name_of(tmp), (b"tmp_t".to_vec(), 1), "object_r: any type");
        let narrow = added.replace("range s0 - s2:c0.c2", "range s0 - s0");
        assert_eq!(load(&parse(&narrow).unwrap().compile().unwrap()), Ok(()));
        assert_eq!(
            name_of(user),
            (b"tmp_t".to_vec(), 0),
            "outside the user's range"
        );
        assert_eq!(load(&parse(&added).unwrap().compile().unwrap()), Ok(()));
        assert_eq!(name_of(user), (b"user_t".to_vec(), 1), "back again");
        // Permissive: counted, allowed.
        set_enforcing(false);
        let before = counts().denials;
        assert_eq!(decide(), (Ok(()), Ok(())));
        assert_eq!(counts().denials, before + 1);
        set_enforcing(true);
    }
}
