//! What a path argument points at (root, a system directory, a home, a block device, temp, the project), for rules that judge targets.

use once_cell::sync::Lazy;
use regex::Regex;

/// The kind of place a path names, from most to least severe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Target {
    /// `/`, `/*`, `//`, `/..`: everything.
    Root,
    /// A system directory or anything under one (`/etc`, `/usr/lib`, `/home`).
    System,
    /// A whole home directory (`~`, `$HOME`, `/home/alice`, `/root`).
    Home,
    /// Cannot be known: an unresolved variable or substitution, or `..`
    /// climbing out of one.
    Unknown,
    /// The whole working directory (`.`, `*`, `./*`).
    WorkingDir,
    /// Outside the working directory but not one of the above (`~/src/x`, `/opt/app`, `../x`).
    Outside,
    /// A toolchain installed in a directory of its own under `/usr/local`
    /// (`/usr/local/go`), which install guides replace by deleting it.
    Toolchain,
    /// A cache tools refill by themselves (`~/.cache/pip`, `~/.npm/_cacache`,
    /// `/var/lib/apt/lists/*`).
    Cache,
    /// A temporary directory's contents (`/tmp/x`, `$TMPDIR/x`).
    Temp,
    /// A path inside the working directory.
    Project,
}

/// Directories whose whole subtree belongs to the system.
const SYSTEM_TREES: &[&str] = &[
    "bin", "boot", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc", "sbin", "sys", "usr",
    "var", "System", "Library", "private", "cores",
];
/// Top-level directories that are system-owned themselves, while what is
/// under them belongs to users or applications.
const SYSTEM_ROOTS: &[&str] = &[
    "home",
    "Users",
    "opt",
    "srv",
    "mnt",
    "media",
    "snap",
    "nix",
    "run",
    "Applications",
    "Volumes",
    "tmp",
    "root",
    "workspace",
];
/// Caches under a home that their tools refill (whole, or anything in them).
#[rustfmt::skip]
const HOME_CACHES: &[&str] = &[
    ".cache", ".npm/_cacache", ".npm/_npx", ".npm/_logs", ".cargo/registry/cache",
    ".cargo/registry/src", ".cargo/registry/index", ".cargo/git/db", ".cargo/git/checkouts",
    ".gradle/caches", ".m2/repository", ".yarn/cache", ".yarn/berry/cache", ".pnpm-store",
    ".local/share/pnpm/store", ".bun/install/cache", ".composer/cache", ".nuget/packages",
    ".pub-cache", ".ccache", ".sccache", ".android/cache", ".expo/cache", ".node-gyp",
    "go/pkg/mod/cache", "Library/Caches", "Library/Developer/Xcode/DerivedData",
    "Library/Developer/CoreSimulator/Caches", "Library/Caches/Homebrew",
];
/// System caches package managers refill (`apt-get update` rebuilds the lists).
#[rustfmt::skip]
const SYSTEM_CACHES: &[&str] = &[
    "var/lib/apt/lists", "var/cache/apt", "var/cache/apk", "var/cache/yum", "var/cache/dnf",
    "var/cache/pacman/pkg", "var/cache/zypp", "var/cache/debconf/templates.dat-old",
];
/// Directories of `/usr/local` that belong to the system's layout rather
/// than to one installed toolchain.
#[rustfmt::skip]
const USR_LOCAL_LAYOUT: &[&str] = &[
    "bin", "sbin", "lib", "lib32", "lib64", "libexec", "include", "share", "etc", "man", "src",
    "games", "var", "opt", "Cellar", "Homebrew", "Caskroom", "Frameworks", "*",
];

/// Whether `parts` (relative to a home, or to `/`) is, or is inside, one of `caches`.
fn in_cache(parts: &[&str], caches: &[&str]) -> bool {
    caches.iter().any(|c| starts_with_components(parts, c))
}

/// Whether `parts` begins with the components of `prefix` (`a/b`).
/// Compared in place: splitting the prefix (every path an argument names
/// meets every prefix) was a tenth of classifying a path.
fn starts_with_components(parts: &[&str], prefix: &str) -> bool {
    let mut rest = prefix;
    for part in parts {
        match rest.strip_prefix(part) {
            Some("") => return true,
            Some(after) if after.starts_with('/') => rest = &after[1..],
            _ => return false,
        }
    }
    false
}

/// How many components `prefix` (`a/b`) has.
fn components(prefix: &str) -> usize {
    prefix.bytes().filter(|&b| b == b'/').count() + 1
}

/// Directories whose contents are temporary files, as components from `/`
/// (macOS keeps `/tmp` and `/var` under `/private`, and each user's
/// `$TMPDIR` under `/var/folders`). The directory itself belongs to the
/// system: `rm -rf /tmp` breaks every program that writes there, while
/// `rm -rf /tmp/*` is clearing temp files.
const TEMP_DIRS: &[&str] = &[
    "tmp",
    "var/tmp",
    "private/tmp",
    "private/var/tmp",
    "var/folders",
    "private/var/folders",
    "dev/shm",
];

/// Whether `path` (absolute, folded) is one of the temporary directories
/// themselves (`/tmp`, `/var/tmp`, `/dev/shm`, ...): always a directory,
/// and a scratch place an agent may be started in.
pub fn is_temp_dir(path: &str) -> bool {
    path.strip_prefix('/')
        .is_some_and(|rest| TEMP_DIRS.contains(&rest.trim_end_matches('/')))
}

/// Whether `parts` (components from `/`) lie strictly inside a temporary
/// directory: its contents, a lone glob over them included.
fn in_temp_dir(parts: &[&str]) -> bool {
    // The prefix test first: it fails at the first component for nearly
    // every path, where counting a prefix's components walks all of it.
    TEMP_DIRS
        .iter()
        .any(|d| starts_with_components(parts, d) && parts.len() > components(d))
}

/// Classifies `path` as written in an argument (after the shell analysis:
/// quotes removed, `$HOME` turned into `~`). `cwd` is a directory an earlier
/// `cd` on the same line moved to, which relative paths are resolved against.
pub fn classify(path: &str, cwd: Option<&str>) -> Target {
    let path = path.trim();
    if path.is_empty() {
        return Target::Project;
    }
    let joined;
    let path = match cwd {
        Some(dir) if !path.starts_with('/') && !path.starts_with('~') && !path.starts_with('$') => {
            joined = format!("{}/{}", dir.trim_end_matches('/'), path);
            joined.as_str()
        }
        _ => path,
    };
    if let Some(rest) = path.strip_prefix('~') {
        // `~user` is another user's home; `~/x` a place inside ours.
        let (user, rest) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        return match normalize(rest) {
            Norm::Escaped => Target::Unknown,
            Norm::Parts(parts) if is_whole(&parts) => Target::Home,
            Norm::Parts(parts) if in_cache(&parts, HOME_CACHES) => Target::Cache,
            Norm::Parts(_) if user.is_empty() => Target::Outside,
            Norm::Parts(_) => Target::Outside,
        };
    }
    if let Some(rest) = path
        .strip_prefix("$TMPDIR")
        .or_else(|| path.strip_prefix("${TMPDIR}"))
    {
        return match normalize(rest) {
            // `$TMPDIR/*` is the temp files; `$TMPDIR` itself is a directory
            // warden cannot see, judged as one outside the project.
            Norm::Parts(parts) if !parts.is_empty() => Target::Temp,
            Norm::Parts(_) => Target::Outside,
            // Climbing out of the temp directory can reach `/`.
            Norm::Escaped => Target::Root,
        };
    }
    // `$PWD/x` is `x` in the working directory.
    if let Some(rest) = path
        .strip_prefix("$PWD")
        .or_else(|| path.strip_prefix("${PWD}"))
    {
        if rest.is_empty() || rest.starts_with('/') {
            return classify(&format!(".{rest}"), None);
        }
    }
    if path.contains('$') || path.contains('`') {
        return Target::Unknown;
    }
    if path.starts_with('/') {
        let Norm::Parts(parts) = normalize(path) else {
            return Target::Root;
        };
        return classify_absolute(&parts);
    }
    match normalize(path) {
        Norm::Escaped => Target::Outside,
        Norm::Parts(parts) if is_whole(&parts) => Target::WorkingDir,
        Norm::Parts(_) => Target::Project,
    }
}

fn classify_absolute(parts: &[&str]) -> Target {
    if is_whole(parts) {
        return Target::Root;
    }
    if in_temp_dir(parts) {
        return Target::Temp;
    }
    if in_cache(parts, SYSTEM_CACHES) {
        return Target::Cache;
    }
    if let ["usr", "local", dir, ..] = parts {
        if !USR_LOCAL_LAYOUT.contains(dir) && !dir.contains(['*', '?', '[']) {
            return Target::Toolchain;
        }
    }
    let top = parts[0];
    // `/e*`, `/us?`, `/[eu]*`: a top-level glob can name system directories.
    if top.contains(['*', '?', '[']) {
        return Target::System;
    }
    let rest = &parts[1..];
    if SYSTEM_TREES.contains(&top) {
        return Target::System;
    }
    if top == "root" && is_whole(rest) {
        return Target::Home;
    }
    if SYSTEM_ROOTS.contains(&top) {
        if is_whole(rest) {
            return Target::System;
        }
        if matches!(top, "home" | "Users") && is_whole(&rest[1..]) {
            return Target::Home;
        }
        let home_rest = match top {
            "home" | "Users" => &rest[1..],
            "root" => rest,
            _ => &[],
        };
        if in_cache(home_rest, HOME_CACHES) {
            return Target::Cache;
        }
        return Target::Outside;
    }
    Target::Outside
}

/// Whether the remaining components name a whole directory: nothing, or a
/// lone glob that matches every entry in it.
fn is_whole(parts: &[&str]) -> bool {
    match parts {
        [] => true,
        [only] => matches!(*only, "*" | ".*" | "{*,.*}" | "**"),
        _ => false,
    }
}

enum Norm<'a> {
    Parts(Vec<&'a str>),
    /// `..` climbed above the starting point.
    Escaped,
}

fn normalize(path: &str) -> Norm<'_> {
    let folded = crate::path::fold(path);
    if folded.escaped {
        Norm::Escaped
    } else {
        Norm::Parts(folded.parts)
    }
}

static BLOCK_DEVICE: Lazy<Regex> = Lazy::new(|| {
    Regex::new(
        r"^/dev/(?:(?:sd|hd|vd|xvd)[a-zA-Z]+\d*|zram\d+|pmem\d+|zd\d+|rbd\d+|bcache\d+|nvme\d+(?:n\d+)?(?:p\d+)?|mmcblk\d+(?:p\d+)?|md\d+|dm-\d+|loop\d+(?:p\d+)?|nbd\d+|r?disk\d+(?:s\d+)*|mapper/\S+|disk/by-[a-z-]+/\S+|sr\d+)/?$",
    )
    .expect("block device regex is valid")
});

/// Whether `path` names a device a disk tool would write: anything under
/// `/dev` but the terminal, the discarding and random devices and the
/// process's own descriptors. Device names are not always `sd[a-z]` (LVM's
/// `/dev/vg0/data`, `/dev/zram0`, a placeholder `/dev/sdX`), and `mkfs`,
/// `wipefs` or `cryptsetup luksFormat` given a `/dev` path means a device.
pub fn is_device_path(path: &str) -> bool {
    let Some(name) = path.strip_prefix("/dev/") else {
        return false;
    };
    // Beyond the devices every rule treats as harmless: the terminals,
    // shared memory and queues, and `/dev/tcp`/`/dev/udp`, bash's sockets,
    // which are judged as network use.
    const ALSO_HARMLESS: &[&str] = &[
        "tty",
        "ptmx",
        "shm/",
        "mqueue/",
        "hugepages/",
        "tcp/",
        "udp/",
    ];
    !name.is_empty()
        && !super::paths::harmless_device(path)
        && !ALSO_HARMLESS.iter().any(|h| name.starts_with(h))
}

/// How each alternative of [`BLOCK_DEVICE`] begins after `/dev/` (`r?disk`
/// is `rdisk` or `disk`; `disk` also begins `disk/by-`).
const BLOCK_DEVICE_STARTS: [&str; 19] = [
    "sd", "hd", "vd", "xvd", "zram", "pmem", "zd", "rbd", "bcache", "nvme", "mmcblk", "md", "dm-",
    "loop", "nbd", "rdisk", "disk", "mapper/", "sr",
];

/// Whether `path` names a raw block device (`/dev/sda1`, `/dev/nvme0n1`,
/// `/dev/disk2`, `/dev/mapper/x`). `~/dev/sdk` and `./dev/sda` are files.
pub fn is_block_device(path: &str) -> bool {
    // The regex is anchored, so a path that begins as none of its
    // alternatives do cannot match: compiling it (3.3 million instructions,
    // Unicode's `\d` and `\S`) was most of a `dd if=/dev/zero` hook call.
    let could = path
        .strip_prefix("/dev/")
        .is_some_and(|name| BLOCK_DEVICE_STARTS.iter().any(|s| name.starts_with(s)));
    if !could {
        debug_assert!(!BLOCK_DEVICE.is_match(path), "{path:?} is a block device");
        return false;
    }
    BLOCK_DEVICE.is_match(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_device_starts_are_what_the_regex_needs() {
        // Matches of every alternative, spelled out here, each with every
        // character swapped in turn or cut, and with text around it.
        let samples = [
            "/dev/sda",
            "/dev/sdX",
            "/dev/hda1",
            "/dev/vdb",
            "/dev/xvda1",
            "/dev/zram0",
            "/dev/pmem0",
            "/dev/zd16",
            "/dev/rbd0",
            "/dev/bcache0",
            "/dev/nvme0",
            "/dev/nvme0n1p2",
            "/dev/mmcblk0p1",
            "/dev/md0",
            "/dev/dm-0",
            "/dev/loop0p1",
            "/dev/nbd0",
            "/dev/rdisk2",
            "/dev/disk2s1",
            "/dev/mapper/vg-x",
            "/dev/disk/by-id/x",
            "/dev/sr0",
            "/dev/sda/",
        ];
        let swaps = ['/', 'a', 'z', 'X', '0', '9', '-', ' ', '\u{663}', '\u{e9}'];
        let mut paths = Vec::new();
        for sample in samples {
            assert!(is_block_device(sample), "{sample}");
            paths.extend(crate::rules::near::near_spellings(sample, &swaps));
        }
        let mut matched = 0;
        for path in &paths {
            for (before, after) in [("", ""), ("", "1"), ("", "/"), ("x", ""), ("", "\u{663}")] {
                let path = format!("{before}{path}{after}");
                let answer = BLOCK_DEVICE.is_match(&path);
                assert_eq!(is_block_device(&path), answer, "{path:?}");
                matched += usize::from(answer);
            }
        }
        // The grid reaches the regex's matches, not only its misses.
        assert!(matched > samples.len() * 20, "{matched}");
    }

    #[test]
    fn component_prefixes_agree_with_rebuilt_strings() {
        // The string forms the prefix tests replaced, kept as the reference.
        let joined_cache = |parts: &[&str], caches: &[&str]| {
            caches.iter().any(|c| {
                let cache: Vec<&str> = c.split('/').collect();
                parts.len() >= cache.len() && parts[..cache.len()] == cache[..]
            })
        };
        let joined_temp = |parts: &[&str]| {
            let rebuilt = format!("/{}/", parts.join("/"));
            TEMP_DIRS.iter().any(|d| {
                let prefix = format!("/{d}/");
                rebuilt.starts_with(&prefix) && rebuilt.len() > prefix.len()
            })
        };
        for path in [
            "/tmp",
            "/tmp/x",
            "/tmpx/y",
            "/var/tmp",
            "/var/tmp/a/b",
            "/var/tmpx",
            "/private/tmp/x",
            "/private/var/folders",
            "/private/var/folders/x",
            "/dev/shm/a",
            "/dev/shmx",
            "/var",
            "/var/lib/apt/lists",
            "/var/lib/apt/lists/x",
            "/var/lib/apt",
            "/var/cache/apt2",
            "/home/u/.cache",
            "/home/u/.cache/pip",
            "/home/u/.npm/_cacache/x",
            "/home/u/.npm",
            "/Users/u/Library/Caches/Homebrew/x",
            "/",
            "/x/../tmp/y",
            "/var/cache/ap",
            "/var/cache/aptx/y",
            "/var/lib/apt/lists/partial/x",
            "/home/u/.cargo/registry",
            "/home/u/.cargo/registry/srcx",
            "/private/var/folders/ab/cd",
            "/private/var/folder/ab",
            "/tmp/*",
            "/private/var/tmp/x",
            "/private/var/tmpx",
        ] {
            let parts = crate::path::fold(path).parts;
            assert_eq!(in_temp_dir(&parts), joined_temp(&parts), "{path}");
            for caches in [SYSTEM_CACHES, HOME_CACHES] {
                assert_eq!(
                    in_cache(&parts, caches),
                    joined_cache(&parts, caches),
                    "{path}"
                );
                if parts.len() > 2 {
                    let home = &parts[2..];
                    assert_eq!(in_cache(home, caches), joined_cache(home, caches), "{path}");
                }
            }
        }
    }

    #[test]
    fn root_forms() {
        for p in ["/", "//", "/.", "/./", "/*", "/..", "/tmp/../..", "/usr/.."] {
            assert_eq!(classify(p, None), Target::Root, "{p}");
        }
    }

    #[test]
    fn system_home_and_temp() {
        assert_eq!(classify("/etc", None), Target::System);
        assert_eq!(classify("/var/lib/postgresql", None), Target::System);
        assert_eq!(classify("/tmp/../etc", None), Target::System);
        assert_eq!(classify("/home", None), Target::System);
        assert_eq!(classify("/home/user", None), Target::Home);
        assert_eq!(classify("/home/user/proj/build", None), Target::Outside);
        assert_eq!(classify("~", None), Target::Home);
        assert_eq!(classify("~/", None), Target::Home);
        assert_eq!(classify("~/*", None), Target::Home);
        assert_eq!(classify("~/src", None), Target::Outside);
        assert_eq!(classify("/tmp/build-cache", None), Target::Temp);
        assert_eq!(classify("/tmp", None), Target::System);
        assert_eq!(classify("/tmp/", None), Target::System);
        assert_eq!(classify("/tmp/.", None), Target::System);
        assert_eq!(classify("/var/tmp", None), Target::System);
        assert_eq!(classify("/private/tmp/", None), Target::System);
        assert_eq!(classify("/dev/shm", None), Target::System);
        // The contents of a temp directory, however globbed, are temp files.
        for contents in [
            "/tmp/*",
            "/tmp/.*",
            "/tmp/**",
            "/var/tmp/*",
            "/private/var/tmp/x",
            "/dev/shm/*",
        ] {
            assert_eq!(classify(contents, None), Target::Temp, "{contents}");
        }
        assert_eq!(classify("$TMPDIR/*", None), Target::Temp);
        assert_eq!(classify("$TMPDIR", None), Target::Outside);
        // Climbing out of one, or a name that only begins like one, is not.
        assert_eq!(classify("/tmp/*/../../etc", None), Target::System);
        assert_eq!(classify("/tmp/x/../../usr", None), Target::System);
        assert_eq!(classify("/tmp/..", None), Target::Root);
        assert_eq!(classify("/tmp*", None), Target::System);
        assert_eq!(classify("/tmpfoo/x", None), Target::Outside);
        assert_eq!(classify("/var/tmpx/y", None), Target::System);
        assert_eq!(classify("*", Some("/tmp")), Target::Temp);
        assert!(is_temp_dir("/tmp") && is_temp_dir("/private/var/tmp") && is_temp_dir("/tmp/"));
        assert!(!is_temp_dir("/tmp/x") && !is_temp_dir("tmp") && !is_temp_dir("/tmpx"));
        assert_eq!(classify("/e*", None), Target::System);
        assert_eq!(classify("/us?/lib", None), Target::System);
        assert_eq!(classify("$TMPDIR/test-dir", None), Target::Temp);
        assert_eq!(classify("$TMPDIR/../../", None), Target::Root);
        assert_eq!(classify("$d", None), Target::Unknown);
        assert_eq!(classify("$PWD/build", None), Target::Project);
        assert_eq!(classify("$PWD", None), Target::WorkingDir);
    }

    #[test]
    fn relative_paths() {
        assert_eq!(classify("node_modules", None), Target::Project);
        assert_eq!(classify("./*", None), Target::WorkingDir);
        assert_eq!(classify(".", None), Target::WorkingDir);
        assert_eq!(classify("../x", None), Target::Outside);
        assert_eq!(classify("./*", Some("~")), Target::Home);
        assert_eq!(classify("build", Some("..")), Target::Outside);
    }

    #[test]
    fn device_paths() {
        for d in [
            "/dev/sdX",
            "/dev/vg0/data",
            "/dev/zram0",
            "/dev/md0",
            "/dev/sda1",
            "/dev/mapper/x",
        ] {
            assert!(is_device_path(d), "{d}");
        }
        for d in [
            "/dev/null",
            "/dev/tty1",
            "/dev/fd/3",
            "/dev/shm/x",
            "/dev/stdout",
            "/devx",
            "/dev/",
        ] {
            assert!(!is_device_path(d), "{d}");
        }
    }

    #[test]
    fn devices() {
        for d in [
            "/dev/sda",
            "/dev/sdb1",
            "/dev/nvme0n1",
            "/dev/nvme0n1p2",
            "/dev/mmcblk0",
            "/dev/disk2",
            "/dev/rdisk3s1",
            "/dev/mapper/root",
            "/dev/disk/by-id/ata-x",
        ] {
            assert!(is_block_device(d), "{d}");
        }
        for d in [
            "/dev/null",
            "/dev/zero",
            "~/dev/sdk",
            "./dev/sda",
            "/dev/tty",
            "/dev/stdout",
        ] {
            assert!(!is_block_device(d), "{d}");
        }
    }
}
