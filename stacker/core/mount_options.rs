// SPDX-License-Identifier: GPL-2.0

//! Mount options of stacker's submodules: in `mount(2)`'s data string
//! (`security_sb_eat_lsm_opts()`) or one by one from `fsconfig(2)`
//! (`security_fs_context_parse_param()`), handed back when the superblock
//! is set up (`security_sb_set_mnt_opts()`).
//!
//! The LSM core keeps one pointer for all LSMs' options of a mount
//! (`fs_context::security`), and SELinux and Smack each take it for a
//! structure of their own. So stacker takes options only when neither is
//! active (`kernel/mount_options.c`); the pointer then holds a
//! [`MountOptions`], the options that the chain's submodules claimed, each
//! with the submodule that claimed it. With SELinux or Smack active, no
//! submodule is asked, and the file system sees the options (and refuses
//! those it does not know).
//!
//! Kernel-independent: the host tests run the same file.

use crate::blob::BlobState;
use crate::error::{Result, EINVAL};

/// The bytes that one mount's options of stacker's submodules may take,
/// stored (each with a header of [`HEADER`] bytes).
pub(crate) const MOUNT_OPTIONS_BYTES: usize = 2040;

/// The longest value that a submodule is asked about when it was given in
/// double quotes in `mount(2)`'s data string (its quotes removed). A
/// longer one is no submodule's: the file system gets it.
pub(crate) const QUOTED_VALUE_MAX: usize = 1024;

/// A stored option's header: the claiming submodule's registry index, the
/// name's length (`u16`, little-endian) and the value's
/// ([`NO_VALUE`] for an option without `=`).
const HEADER: usize = 5;
const NO_VALUE: u16 = u16::MAX;

/// One mount option: `name`, or `name=value`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct MountOption<'a> {
    /// What comes before the first `=`.
    pub(crate) name: &'a [u8],
    /// What comes after it (without the double quotes of `mount(2)`'s
    /// data string); `None` without `=`.
    pub(crate) value: Option<&'a [u8]>,
}

/// The options the chain's submodules claimed for one mount, in the order
/// they were given.
///
/// With submodules registered as LSMs of their own
/// (`CONFIG_SECURITY_STACKER_OWN_LSM`), several instances of stacker's
/// entry points share the pointer: each adds its submodules' options and
/// hands them back, but only the one that made it (its keeper) copies
/// and frees it, since the LSM core asks every LSM to free it.
#[repr(C)]
pub(crate) struct MountOptions {
    used: usize,
    /// The registry index, plus one, of the first option-taking submodule
    /// of the instance that made it; 0 until set.
    keeper: u8,
    bytes: [u8; MOUNT_OPTIONS_BYTES],
}

// SAFETY: all zero is "no options"; there is nothing to drop.
unsafe impl BlobState for MountOptions {}

impl MountOptions {
    /// Adds `option`, claimed by the submodule with registry index
    /// `owner`. `EINVAL` when the mount's options would take more than
    /// [`MOUNT_OPTIONS_BYTES`] (the mount fails; nothing is added).
    pub(crate) fn push(&mut self, owner: u8, option: MountOption<'_>) -> Result {
        let name_len = u16::try_from(option.name.len()).map_err(|_| EINVAL)?;
        let value_len = match option.value {
            Some(v) => u16::try_from(v.len())
                .ok()
                .filter(|&n| n != NO_VALUE)
                .ok_or(EINVAL)?,
            None => NO_VALUE,
        };
        let value = option.value.unwrap_or(&[]);
        let [n0, n1] = name_len.to_le_bytes();
        let [v0, v1] = value_len.to_le_bytes();
        let header = [owner, n0, n1, v0, v1];
        let end = (self.used)
            .checked_add(HEADER)
            .and_then(|n| n.checked_add(option.name.len()))
            .and_then(|n| n.checked_add(value.len()))
            .ok_or(EINVAL)?;
        let start = self.used;
        let to = self.bytes.get_mut(start..end).ok_or(EINVAL)?;
        // Byte by byte, with no panic path: `to` is exactly as long.
        let from = header.iter().chain(option.name).chain(value);
        for (t, f) in to.iter_mut().zip(from) {
            *t = *f;
        }
        self.used = end;
        Ok(())
    }

    /// The options with the registry index of the submodule that claimed
    /// each, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u8, MountOption<'_>)> {
        let mut at: usize = 0;
        let stored = self.bytes.get(..self.used).unwrap_or(&[]);
        core::iter::from_fn(move || {
            let header = stored.get(at..at.checked_add(HEADER)?)?;
            let [owner, n0, n1, v0, v1] = <[u8; HEADER]>::try_from(header).ok()?;
            let name_len = usize::from(u16::from_le_bytes([n0, n1]));
            let raw_value_len = u16::from_le_bytes([v0, v1]);
            let value_len = if raw_value_len == NO_VALUE {
                0
            } else {
                usize::from(raw_value_len)
            };
            let name_at = at.checked_add(HEADER)?;
            let value_at = name_at.checked_add(name_len)?;
            let next = value_at.checked_add(value_len)?;
            let name = stored.get(name_at..value_at)?;
            let value = stored.get(value_at..next)?;
            at = next;
            let value = (raw_value_len != NO_VALUE).then_some(value);
            Some((owner, MountOption { name, value }))
        })
    }

    /// Makes this a copy of `other` (`fs_context_dup`), kept by the same
    /// instance.
    pub(crate) fn copy_from(&mut self, other: &MountOptions) {
        self.used = other.used;
        self.keeper = other.keeper;
        self.bytes = other.bytes;
    }

    /// Records that the instance whose first option-taking submodule has
    /// registry index `first` made these options.
    pub(crate) fn set_keeper(&mut self, first: u8) {
        self.keeper = first.wrapping_add(1);
    }

    /// Whether the instance whose first option-taking submodule has
    /// registry index `first` made these options, and so copies and frees
    /// them.
    pub(crate) fn kept_by(&self, first: u8) -> bool {
        self.keeper == first.wrapping_add(1)
    }
}

/// The options of one submodule for one mount: what its `sb_set_mnt_opts`
/// and `sb_mnt_opts_compat` are given. Empty for a mount without any.
#[derive(Clone, Copy)]
pub(crate) struct OwnMountOptions<'a> {
    all: Option<&'a MountOptions>,
    owner: u8,
}

impl<'a> OwnMountOptions<'a> {
    /// The options in `all` that the submodule with registry index `owner`
    /// claimed.
    pub(crate) fn new(all: Option<&'a MountOptions>, owner: u8) -> Self {
        OwnMountOptions { all, owner }
    }

    /// The submodule's options, in the order they were given.
    pub(crate) fn iter(&self) -> impl Iterator<Item = MountOption<'a>> + 'a {
        let owner = self.owner;
        self.all
            .into_iter()
            .flat_map(MountOptions::iter)
            .filter(move |(m, _)| *m == owner)
            .map(|(_, option)| option)
    }
}

/// The length of the option at the start of `s`: up to the first comma
/// that is not inside double quotes, as SELinux's `opt_len()`.
fn option_len(s: &[u8]) -> usize {
    let mut quoted = false;
    for (i, &c) in s.iter().enumerate() {
        match c {
            b'"' => quoted = !quoted,
            b',' if !quoted => return i,
            _ => {}
        }
    }
    s.len()
}

/// Takes the options that `claim` claims out of `data`, `mount(2)`'s data
/// string (without its NUL), as SELinux's `selinux_sb_eat_lsm_opts()`:
/// options are separated by commas, except inside double quotes; an
/// option is `name` or `name=value`, and a value's double quotes are
/// removed before `claim` sees it. The options left are moved to the
/// front of `data`, each after a comma; returns their length (the caller
/// ends the string there). `claim` answers `Ok(true)` for an option it
/// took, `Ok(false)` for one it did not; its error ends the walk, with
/// `data` partly rewritten (the mount fails).
pub(crate) fn eat(
    data: &mut [u8],
    scratch: &mut [u8; QUOTED_VALUE_MAX],
    mut claim: impl FnMut(MountOption<'_>) -> Result<bool>,
) -> Result<usize> {
    let mut from = 0;
    let mut to = 0;
    let mut kept = false;
    loop {
        let len = option_len(data.get(from..).unwrap_or(&[]));
        let end = from.saturating_add(len);
        let option = data.get(from..end).unwrap_or(&[]);
        let taken = match option.iter().position(|&c| c == b'=') {
            None => claim(MountOption {
                name: option,
                value: None,
            })?,
            Some(eq) => {
                let name = option.get(..eq).unwrap_or(&[]);
                let value = option.get(eq.saturating_add(1)..).unwrap_or(&[]);
                if value.contains(&b'"') {
                    let unquoted =
                        value.iter().fold(
                            0usize,
                            |n, &c| if c == b'"' { n } else { n.saturating_add(1) },
                        );
                    match scratch.get_mut(..unquoted) {
                        Some(out) => {
                            for (o, &c) in out.iter_mut().zip(value.iter().filter(|&&c| c != b'"'))
                            {
                                *o = c;
                            }
                            claim(MountOption {
                                name,
                                value: Some(out),
                            })?
                        }
                        None => false,
                    }
                } else {
                    claim(MountOption {
                        name,
                        value: Some(value),
                    })?
                }
            }
        };
        if !taken {
            if kept {
                if let Some(c) = data.get_mut(to) {
                    *c = b',';
                }
                to = to.saturating_add(1);
            }
            // Forwards, byte by byte (`to` <= `from`), with no panic path.
            for i in 0..len {
                if let Some(&c) = data.get(from.saturating_add(i)) {
                    if let Some(t) = data.get_mut(to.saturating_add(i)) {
                        *t = c;
                    }
                }
            }
            to = to.saturating_add(len);
            kept = true;
        }
        if end >= data.len() {
            return Ok(to);
        }
        // Past the comma.
        from = end.saturating_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::EPERM;

    fn opt<'a>(name: &'a [u8], value: Option<&'a [u8]>) -> MountOption<'a> {
        MountOption { name, value }
    }

    /// Runs [`eat`] on `data`, claiming the names in `mine`; what is left
    /// and what was claimed.
    fn eat_str(data: &str, mine: &[&str]) -> (String, Vec<(String, Option<String>)>) {
        let mut buf = data.as_bytes().to_vec();
        let mut scratch = [0u8; QUOTED_VALUE_MAX];
        let mut taken = Vec::new();
        let n = eat(&mut buf, &mut scratch, |o| {
            let ours = mine.iter().any(|m| m.as_bytes() == o.name);
            if ours {
                taken.push((
                    String::from_utf8(o.name.to_vec()).unwrap(),
                    o.value.map(|v| String::from_utf8(v.to_vec()).unwrap()),
                ));
            }
            Ok(ours)
        })
        .unwrap();
        (String::from_utf8(buf[..n].to_vec()).unwrap(), taken)
    }

    #[test]
    fn claimed_options_are_taken_out_and_the_rest_kept_in_order() {
        let (left, taken) = eat_str("size=1m,probe_opt=4,mode=0755,flag", &["probe_opt", "flag"]);
        assert_eq!(left, "size=1m,mode=0755");
        assert_eq!(
            taken,
            [
                ("probe_opt".into(), Some("4".into())),
                ("flag".into(), None)
            ]
        );
        let (left, _) = eat_str("probe_opt=1", &["probe_opt"]);
        assert_eq!(left, "");
        let (left, taken) = eat_str("a,b", &[]);
        assert_eq!((left.as_str(), taken.len()), ("a,b", 0));
        let (left, _) = eat_str("", &["x"]);
        assert_eq!(left, "");
        // Empty options stay as they are, for the file system to judge.
        let (left, _) = eat_str("a,,x=1,", &["x"]);
        assert_eq!(left, "a,,");
    }

    #[test]
    fn a_comma_inside_double_quotes_is_part_of_the_value() {
        let (left, taken) = eat_str(
            "context=\"u:r:t:s0:c0,c1\",size=1m,other=\"a,b\"",
            &["context"],
        );
        assert_eq!(left, "size=1m,other=\"a,b\"");
        assert_eq!(taken, [("context".into(), Some("u:r:t:s0:c0,c1".into()))]);
    }

    #[test]
    fn a_claims_error_ends_the_walk() {
        let mut buf = b"a,bad=1,c".to_vec();
        let mut scratch = [0u8; QUOTED_VALUE_MAX];
        let mut seen = 0;
        let r = eat(&mut buf, &mut scratch, |o| {
            seen += 1;
            if o.name == b"bad" {
                Err(EPERM)
            } else {
                Ok(false)
            }
        });
        assert_eq!(r, Err(EPERM));
        assert_eq!(seen, 2);
    }

    #[test]
    fn a_quoted_value_too_long_is_no_submodules() {
        let long = format!("x=\"{}\"", "v".repeat(QUOTED_VALUE_MAX + 1));
        let (left, taken) = eat_str(&long, &["x"]);
        assert_eq!(left, long);
        assert!(taken.is_empty());
    }

    #[test]
    fn options_are_kept_with_their_submodule_in_order() {
        let mut all = MountOptions {
            used: 0,
            keeper: 0,
            bytes: [0; MOUNT_OPTIONS_BYTES],
        };
        assert_eq!(all.push(2, opt(b"a", Some(b"1"))), Ok(()));
        assert_eq!(all.push(0, opt(b"flag", None)), Ok(()));
        assert_eq!(all.push(2, opt(b"b", Some(b""))), Ok(()));
        let got: Vec<_> = all.iter().collect();
        assert_eq!(
            got,
            [
                (2, opt(b"a", Some(b"1"))),
                (0, opt(b"flag", None)),
                (2, opt(b"b", Some(b""))),
            ]
        );
        let two: Vec<_> = OwnMountOptions::new(Some(&all), 2).iter().collect();
        assert_eq!(two, [opt(b"a", Some(b"1")), opt(b"b", Some(b""))]);
        assert!(OwnMountOptions::new(Some(&all), 1).iter().next().is_none());
        assert!(OwnMountOptions::new(None, 2).iter().next().is_none());
        let mut copy = MountOptions {
            used: 0,
            keeper: 0,
            bytes: [0; MOUNT_OPTIONS_BYTES],
        };
        all.set_keeper(4);
        assert!(all.kept_by(4) && !all.kept_by(5));
        copy.copy_from(&all);
        assert_eq!(copy.iter().count(), 3);
        assert!(copy.kept_by(4));
    }

    #[test]
    fn options_beyond_the_limit_are_refused_and_nothing_is_added() {
        let mut all = MountOptions {
            used: 0,
            keeper: 0,
            bytes: [0; MOUNT_OPTIONS_BYTES],
        };
        let big = [b'x'; 1000];
        assert_eq!(all.push(1, opt(b"a", Some(&big))), Ok(()));
        assert_eq!(all.push(1, opt(b"b", Some(&big))), Ok(()));
        assert_eq!(all.push(1, opt(b"c", Some(&big))), Err(EINVAL));
        assert_eq!(all.iter().count(), 2);
        let huge = vec![b'y'; 70_000];
        assert_eq!(all.push(1, opt(&huge, None)), Err(EINVAL));
        assert_eq!(all.iter().count(), 2);
    }
}
