//! Built-in rules: storage destroyed, rolled back, shrunk or overwritten by the tools that manage it (volume managers, pools, subvolumes, RAID members, cluster storage, snapshots and backups, virtual machines' disks), one row per program and subcommand, and host directories handed to a storage daemon.

use super::targets::{classify, is_device_path, Target};
use super::{verb, verb_if, Matcher, Rule, Verb};
use crate::shell::Command;
use crate::verdict::Decision;

/// Programs and subcommands that destroy a volume, a pool, a dataset, a
/// subvolume or the disks of a machine with everything on it. Listing,
/// creating, snapshotting and growing are their everyday neighbours.
#[rustfmt::skip]
static DESTROY: &[Verb] = &[
    // LVM: logical volumes, volume groups and physical volumes.
    verb("lvremove", ""),
    verb("vgremove", ""),
    verb("pvremove", ""),
    verb("lvm", r"^(?:\S+ )*?(?:lv|vg|pv)remove\b"),
    // ZFS and its pools.
    verb("zpool", r"^(?:-\S+ )*(?:destroy|labelclear)\b"),
    verb_if("zfs", r"^(?:-\S+ )*destroy\b", not_dry_run),
    // btrfs subvolumes, stratis pools and VDO volumes.
    verb("btrfs", r"^(?:-\S+ )*(?:su|sub|subv|subvol|subvolu|subvolum|subvolume) (?:-\S+ )*(?:de|del|dele|delet|delete)\b"),
    verb("stratis", r"^(?:-\S+ )*(?:pool|filesystem|fs) (?:destroy|delete)\b"),
    verb("vdo", r"^remove\b"),
    // RAID members wiped or arrays torn down.
    verb("mdadm", r"(?:^| )(?:--zero-superblock|--remove|--fail|-f|--stop|-S)(?: |$)"),
    // Device-mapper targets and multipath maps removed under a filesystem.
    verb("dmsetup", r"^(?:-\S+ )*(?:remove|remove_all|wipe_table)\b"),
    // Cluster storage: Ceph pools, OSDs, filesystems and images, Gluster volumes.
    verb("ceph", r"(?:^| )(?:osd (?:pool (?:delete|rm)|purge|destroy)|fs (?:rm|delete)|orch osd rm)(?: |$)"),
    verb("rbd", r"(?:^| )(?:rm|remove|snap purge|trash (?:rm|remove|purge))(?: |$)"),
    verb("rados", r"(?:^| )(?:purge|rmpool)(?: |$)"),
    verb("gluster", r"(?:^| )volume (?:delete\b|remove-brick\b.* force(?: |$))"),
    // Virtual machines and containers removed with their disks.
    verb("virsh", r"\b(?:undefine\b.*--(?:remove-all-storage|storage|wipe-storage)\b|vol-delete\b|vol-wipe\b|pool-delete\b)"),
    verb("lxc", r"^(?:-\S+ )*(?:delete|rm)\b.*(?:^| )(?:--force|-f)(?: |$)"),
    verb("lxc", r"^(?:-\S+ )*storage (?:delete|volume delete)\b"),
    verb("incus", r"^(?:-\S+ )*(?:delete|rm)\b.*(?:^| )(?:--force|-f)(?: |$)"),
    verb("incus", r"^(?:-\S+ )*storage (?:delete|volume delete)\b"),
    verb("lxc-destroy", ""),
    verb("vboxmanage", r"^(?:unregistervm\b.*--delete|closemedium\b.*--delete)\b"),
    verb("prlctl", r"^delete\b"),
    verb("multipass", r"^(?:delete|purge)\b"),
    verb("vagrant", r"^(?:-\S+ )*destroy\b"),
    verb("docker-machine", r"^(?:-\S+ )*(?:rm|remove)\b"),
    verb("vmrun", r"(?:^| )deleteVM(?: |$)"),
    verb("utmctl", r"^delete\b"),
    verb("tart", r"^delete\b"),
    // Proxmox guests and volumes, XenServer disks and storage repositories.
    verb("qm", r"^(?:destroy|disk unlink)\b"),
    verb("pct", r"^destroy\b"),
    verb("pvesm", r"^free\b"),
    verb("xe", r"^(?:vm-uninstall|vdi-destroy|vdi-forget|sr-destroy|sr-forget)\b"),
    // Partition tables of the BSDs and macOS.
    verb("gpart", r"^(?:-\S+ )*(?:destroy|delete)\b"),
    verb("gpt", r"^(?:-\S+ )*(?:destroy|remove)\b"),
    // macOS: APFS volumes and containers, RAID sets, whole disks erased.
    verb("diskutil", r"(?i)^(?:apfs (?:deleteVolume|deleteVolumeGroup|deleteContainer|eraseVolume)|(?:appleRAID|ar) delete|(?:coreStorage|cs) (?:delete|deleteVolume)|eraseDisk|eraseVolume|zeroDisk|randomDisk|secureErase|partitionDisk|reformat)\b"),
];

/// Snapshots and backups deleted, or a volume rolled back to one (every
/// change since is lost, and later snapshots with it). Taking and listing
/// snapshots are the neighbours.
#[rustfmt::skip]
static ROLL_BACK: &[Verb] = &[
    verb("zfs", r"^(?:-\S+ )*rollback\b"),
    // `receive -F` rolls the target back and destroys snapshots it lacks.
    verb("zfs", r"^(?:-\S+ )*(?:recv|receive)\b.*(?:^| )-[A-Za-z]*F[A-Za-z]*(?: |$)"),
    verb("lvconvert", r"(?:^| )--merge(?:snapshot)?(?: |$)"),
    verb("lvm", r"^(?:\S+ )*?lvconvert\b.* --merge(?:snapshot)?(?: |$)"),
    verb("snapper", r"(?:^| )(?:delete|remove|rm|rollback|undochange)(?: |$)"),
    verb("timeshift", r"(?:^| )--(?:delete|delete-all|restore)(?: |$)"),
    verb("tmutil", r"^(?:delete|deletelocalsnapshots|deleteinprogress)\b"),
    verb("diskutil", r"(?i)^apfs deleteSnapshot\b"),
];

/// A filesystem or volume shrunk, or its structures rewritten by a repair
/// or an editor that can lose data: what the tools' own manuals warn about.
#[rustfmt::skip]
static RESHAPE: &[Verb] = &[
    verb("lvreduce", ""),
    // An explicit size that does not begin with `+` may be a shrink.
    verb("lvresize", r"(?:^| )(?:-L ?|--size[= ]|-l ?|--extents[= ])[^+ ]"),
    verb("lvm", r"^(?:\S+ )*?lvreduce\b"),
    verb("vgreduce", r"(?:^| )--removemissing(?: |$)"),
    verb_if("resize2fs", "", shrinks_ext),
    verb("btrfs", r"^(?:-\S+ )*fi\w* resize (?:\d+:)?-"),
    verb("btrfs", r"^(?:-\S+ )*ch\w* .*--(?:repair|init-csum-tree|init-extent-tree)\b"),
    verb("btrfs", r"^(?:-\S+ )*resc\w* (?:zero-log|chunk-recover)\b"),
    verb("xfs_repair", r"(?:^| )-[A-Za-z]*L[A-Za-z]*(?: |$)"),
    verb_if("debugfs", r"(?:^| )-[A-Za-z]*w", on_device),
    verb_if("tune2fs", r"(?:^| )-O ?\S*\^", on_device),
];

/// New signatures, superblocks or keys written over a device's contents:
/// a pool or array created by force, an image restored with `--erase`, the
/// key slots of an encrypted volume removed, an ATA password set.
#[rustfmt::skip]
static OVERWRITE: &[Verb] = &[
    verb("zpool", r"^(?:-\S+ )*(?:create|add|attach|replace)\b.* -[A-Za-z]*f[A-Za-z]*(?: |$)"),
    verb("mdadm", r"(?:^| )(?:--create|-C)(?: |$)"),
    verb_if("pvcreate", r"(?:^| )(?:-[A-Za-z]*[fy][A-Za-z]*|--force|--yes)(?: |$)", on_device),
    verb("asr", r"(?:^| )--?erase(?: |$)"),
    verb("cryptsetup", r"(?i)(?:^| )(?:luksKillSlot|luksRemoveKey)(?: |$)"),
    verb("hdparm", r"(?:^| )--(?:security-set-pass|yes-i-know-what-i-am-doing|dco-restore|dco-setmax|make-bad-sector|write-sector)(?: |$)"),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "storage.destroy-volume",
        category: "destroy a volume, pool, dataset, subvolume or a machine's disks",
        reason: "the volume and every file on it are gone; no trash, and snapshots inside it go with it",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(DESTROY),
        hits: &["lvremove -f /dev/vg0/root", "vgremove vg0", "pvremove /dev/sda2", "lvm lvremove vg0/data", "zpool destroy tank", "zfs destroy -r tank/home", "sudo zfs destroy tank@snap", "btrfs subvolume delete /mnt/@home", "btrfs sub del /mnt/x", "mdadm --zero-superblock /dev/sdb1", "mdadm --stop /dev/md0", "virsh undefine vm1 --remove-all-storage", "virsh vol-delete disk.qcow2 --pool default", "lxc delete --force web", "incus delete -f web", "diskutil apfs deleteVolume disk3s5", "diskutil apfs deleteContainer disk3", "dmsetup remove_all", "multipass delete --purge vm", "ceph osd pool delete rbd rbd --yes-i-really-really-mean-it", "rbd rm volumes/img", "rados purge pool1 --yes-i-really-really-mean-it", "gluster volume delete gv0", "vagrant destroy -f", "gpart destroy -F ada1", "diskutil appleRAID delete disk5", "vdo remove --name=v1", "qm destroy 100 --purge", "pct destroy 101", "xe vdi-destroy uuid=x"],
        misses: &["lvs", "lvdisplay vg0/root", "lvcreate -L 10G -n data vg0", "lvextend -L +5G vg0/data", "zpool status", "zpool list", "zfs list -t snapshot", "zfs snapshot tank/home@today", "btrfs subvolume list /", "btrfs subvolume create /mnt/new", "mdadm --detail /dev/md0", "virsh list --all", "virsh undefine vm1", "lxc list", "lxc delete web", "diskutil list", "diskutil apfs list", "dmsetup ls", "echo zpool destroy tank", "ceph osd pool ls", "rbd ls volumes", "gluster volume info", "vagrant up", "gpart show", "zfs destroy -nv tank@a%b", "qm list", "pct list"],
    },
    Rule {
        id: "storage.roll-back",
        category: "roll a volume back to a snapshot, or delete snapshots and backups",
        reason: "every change since the snapshot is lost, and the snapshots or backups deleted are the way back",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(ROLL_BACK),
        hits: &["zfs rollback -r tank/home@monday", "zfs receive -F pool/a", "zfs recv -uF pool/a", "lvconvert --merge vg0/snap", "snapper -c root delete 1-200", "timeshift --delete-all", "diskutil apfs deleteSnapshot disk3s5 -name x"],
        misses: &["zfs snapshot tank@x", "zfs receive pool/a", "lvconvert --type raid1 -m1 vg0/data", "snapper list", "timeshift --create", "tmutil listlocalsnapshots /", "tmutil localsnapshot", "diskutil apfs listSnapshots disk3s5"],
    },
    Rule {
        id: "storage.shrink-or-repair",
        category: "shrink a volume or filesystem, or rewrite its structures",
        reason: "a shrink cuts off what lies past the new end, and these repairs and editors can throw away metadata and the files it points to",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(RESHAPE),
        hits: &["lvreduce -L -20G /dev/vg0/data", "lvresize --size -5G vg0/var", "lvresize -L8G vg0/home", "vgreduce --removemissing --force vg0", "resize2fs /dev/vg0/data 10G", "resize2fs -M /dev/sdb1", "btrfs filesystem resize -50g /srv", "btrfs check --repair /dev/sdb1", "btrfs rescue zero-log /dev/sda3", "xfs_repair -L /dev/sdc1", "debugfs -w /dev/sda1", "tune2fs -O ^has_journal /dev/sda2"],
        misses: &["lvresize -L +5G vg0/data", "lvresize -l +100%FREE vg0/data", "resize2fs /dev/vg0/data", "btrfs filesystem resize max /", "btrfs check --readonly /dev/sdb1", "xfs_repair -n /dev/sdc1", "debugfs /dev/sda1", "debugfs -w disk.img", "tune2fs -l /dev/sda1", "tune2fs -O ^has_journal disk.img", "vgreduce vg0 /dev/sdd1"],
    },
    Rule {
        id: "storage.overwrite-device",
        category: "write a new pool, array, key slot or drive password over a device",
        reason: "new superblocks and labels replace what the disks held, and a removed key slot or a lost drive password locks the data away",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(OVERWRITE),
        hits: &["zpool create -f scratch /dev/sdb", "mdadm --create /dev/md0 --level=1 --raid-devices=2 /dev/sdb /dev/sdc", "pvcreate -ff /dev/sdb", "asr restore --source a.dmg --target /Volumes/D --erase", "cryptsetup luksKillSlot /dev/sda3 0", "cryptsetup luksRemoveKey /dev/sda3", "hdparm --user-master u --security-set-pass p /dev/sdb"],
        misses: &["zpool create tank mirror /dev/sdb /dev/sdc", "mdadm --assemble --scan", "pvcreate /dev/sdb", "pvcreate -y disk.img", "asr imagescan --source a.dmg", "cryptsetup luksAddKey /dev/sda3", "hdparm -I /dev/sda"],
    },
    Rule {
        id: "storage.unmount-system",
        category: "unmount the root filesystem, a system directory or every filesystem",
        reason: "the programs and data the machine runs on disappear from under it",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["umount"], check: unmounts_system },
        hits: &["umount -l /", "sudo umount -f /usr", "umount -a", "umount --all -t nfs"],
        misses: &["umount /mnt/usb", "umount -l /mnt/nfs", "sudo umount /media/alice/USB", "umount ./mnt"],
    },
    Rule {
        id: "storage.pool-over-host-dir",
        category: "a virtual machines' storage pool made over a host directory (virsh pool-create-as NAME dir --target DIR)",
        reason: "the libvirt daemon, running as root, then reads and writes that directory's files as volumes (vol-download, vol-upload) for whoever can reach it",
        decision: Decision::Ask,
        matcher: Matcher::Check { programs: &["virsh"], check: pool_over_host_dir },
        hits: &["virsh -c qemu:///system pool-create-as x dir --target /etc/", "virsh pool-define-as x dir --target=/root", "virsh pool-create-as --name x --type dir --target /home/u/.ssh", "virsh -c qemu:///system pool-create-as x dir --target /tmp/w/dir/"],
        misses: &["virsh pool-define-as default dir --target /var/lib/libvirt/images", "virsh pool-create-as images dir --target ./vm-images", "virsh pool-list --all", "virsh pool-create-as x logical --source-name vg0 --target /dev/vg0"],
    },
];

/// `resize2fs` given a size (which may be smaller than today's) or `-M`,
/// the smallest size; without one it grows the filesystem to fill its device.
fn shrinks_ext(cmd: &Command) -> bool {
    cmd.has_short('M') || cmd.operands().len() >= 2
}

/// Not `-n`, the dry run that only says what would go.
fn not_dry_run(cmd: &Command) -> bool {
    !cmd.has_short('n')
}

/// A device among the operands: the same edits to an image file are the
/// project's own business.
fn on_device(cmd: &Command) -> bool {
    cmd.operands().iter().any(|p| is_device_path(p))
}

/// `umount -a`, or `umount` of `/` or a system directory (`/usr`, `/boot`,
/// `/home`); removable and network mounts under `/mnt` and `/media` are
/// everyday.
fn unmounts_system(cmd: &Command) -> bool {
    cmd.has_short('a')
        || cmd.has_long("--all")
        || cmd.operands().iter().any(|p| {
            matches!(
                classify(p, cmd.cwd.as_deref()),
                Target::Root | Target::System
            )
        })
}

/// `virsh pool-create-as` or `pool-define-as` of a `dir` pool whose target
/// is outside libvirt's own directory and the project.
fn pool_over_host_dir(cmd: &Command) -> bool {
    let args = &cmd.args;
    let Some(at) = args
        .iter()
        .position(|a| a == "pool-create-as" || a == "pool-define-as")
    else {
        return false;
    };
    let rest = &args[at + 1..];
    let dir_pool = rest.iter().enumerate().any(|(i, a)| {
        a == "dir"
            || a == "--type=dir"
            || (a == "--type" && rest.get(i + 1).is_some_and(|t| t == "dir"))
    });
    let target = rest.iter().enumerate().find_map(|(i, a)| {
        a.strip_prefix("--target=").map(str::to_string).or_else(|| {
            (a == "--target")
                .then(|| rest.get(i + 1).cloned())
                .flatten()
        })
    });
    dir_pool
        && target.is_some_and(|t| {
            !t.starts_with("/var/lib/libvirt/")
                && classify(&t, cmd.cwd.as_deref()) != Target::Project
        })
}
