//! Built-in rules: storage destroyed by the tools that manage it (volume managers, pools, subvolumes, RAID members, virtual machines' and containers' disks), one row per program and subcommand.

use super::{verb, Matcher, Rule, Verb};
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
    verb("zfs", r"^(?:-\S+ )*destroy\b"),
    // btrfs subvolumes and stratis pools.
    verb("btrfs", r"^(?:-\S+ )*(?:su|sub|subv|subvol|subvolu|subvolum|subvolume) (?:-\S+ )*(?:de|del|dele|delet|delete)\b"),
    verb("stratis", r"^(?:-\S+ )*(?:pool|filesystem|fs) (?:destroy|delete)\b"),
    // RAID members wiped or arrays torn down.
    verb("mdadm", r"(?:^| )(?:--zero-superblock|--remove|--fail|-f|--stop|-S)(?: |$)"),
    // Device-mapper targets and multipath maps removed under a filesystem.
    verb("dmsetup", r"^(?:-\S+ )*(?:remove|remove_all|wipe_table)\b"),
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
    // macOS: APFS volumes and containers, and whole disks erased.
    verb("diskutil", r"^(?:apfs (?:deleteVolume|deleteContainer|eraseVolume)|eraseDisk|eraseVolume|zeroDisk|randomDisk|secureErase|partitionDisk|reformat)\b"),
];

#[rustfmt::skip]
pub static RULES: &[Rule] = &[
    Rule {
        id: "storage.destroy-volume",
        category: "destroy a volume, pool, dataset, subvolume or a machine's disks",
        reason: "the volume and every file on it are gone; no trash, and snapshots inside it go with it",
        decision: Decision::Ask,
        matcher: Matcher::Verbs(DESTROY),
        hits: &["lvremove -f /dev/vg0/root", "vgremove vg0", "pvremove /dev/sda2", "lvm lvremove vg0/data", "zpool destroy tank", "zfs destroy -r tank/home", "sudo zfs destroy tank@snap", "btrfs subvolume delete /mnt/@home", "btrfs sub del /mnt/x", "mdadm --zero-superblock /dev/sdb1", "mdadm --stop /dev/md0", "virsh undefine vm1 --remove-all-storage", "virsh vol-delete disk.qcow2 --pool default", "lxc delete --force web", "incus delete -f web", "diskutil apfs deleteVolume disk3s5", "diskutil apfs deleteContainer disk3", "dmsetup remove_all", "multipass delete --purge vm"],
        misses: &["lvs", "lvdisplay vg0/root", "lvcreate -L 10G -n data vg0", "lvextend -L +5G vg0/data", "zpool status", "zpool list", "zfs list -t snapshot", "zfs snapshot tank/home@today", "btrfs subvolume list /", "btrfs subvolume create /mnt/new", "mdadm --detail /dev/md0", "virsh list --all", "virsh undefine vm1", "lxc list", "lxc delete web", "diskutil list", "diskutil apfs list", "dmsetup ls", "echo zpool destroy tank"],
    },
];
