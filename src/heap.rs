//! The executable's memory allocator: small blocks from per-size free lists, the rest from the system.
//!
//! A call allocates and frees a few hundred small strings and vectors, and
//! glibc's general-purpose `malloc`/`free` (bins, coalescing, consolidation)
//! were a quarter of the instructions of `check --batch`. Rust tells an
//! allocator the size of every block it frees, so small blocks need no
//! header and no search: a block of up to 1 KiB is rounded up to a multiple
//! of 16 bytes, up to 32 KiB to a power of two, and each of those sizes
//! keeps a list of freed blocks to hand out again. New blocks are cut from
//! 256 KiB chunks taken from the system allocator. Memory freed into a list
//! stays there for blocks of that size (a hook process lives for one call;
//! `check --batch` reaches a steady state); larger blocks and unusual
//! alignments go to the system allocator unchanged.
//!
//! The lists are per thread (warden's work is single-threaded; a block
//! freed on another thread simply joins that thread's list), so no lock is
//! taken.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ptr;

/// Blocks up to this size come from the size lists.
const SMALL: usize = 32 * 1024;
/// Sizes up to this are rounded to a multiple of [`GRAIN`]; above, to a power of two.
const FINE: usize = 1024;
const GRAIN: usize = 16;
/// The fine classes (16, 32, …, 1024), then 2, 4, 8, 16 and 32 KiB.
const CLASSES: usize = FINE / GRAIN + 5;
const CHUNK: usize = 256 * 1024;

/// The allocator installed by `main.rs` as the executable's global allocator.
pub struct Heap;

struct Lists {
    /// The first free block of each class; a free block's first word points to the next.
    free: [Cell<*mut u8>; CLASSES],
    /// Where the current chunk starts, where its next new block is cut
    /// from, and where it ends.
    start: Cell<*mut u8>,
    next: Cell<*mut u8>,
    end: Cell<*mut u8>,
}

thread_local! {
    static LISTS: Lists = const {
        Lists {
            free: [const { Cell::new(ptr::null_mut()) }; CLASSES],
            start: Cell::new(ptr::null_mut()),
            next: Cell::new(ptr::null_mut()),
            end: Cell::new(ptr::null_mut()),
        }
    };
}

/// The class of a block of `size` bytes and the size it is rounded to, or
/// `None` for blocks the system allocator serves.
#[inline]
fn class(layout: Layout) -> Option<(usize, usize)> {
    let size = layout.size();
    if layout.align() > GRAIN || size > SMALL {
        return None;
    }
    if size <= FINE {
        // A zero-sized request never reaches a global allocator; `max` keeps
        // the arithmetic total anyway.
        let index = (size.max(1) - 1) / GRAIN;
        Some((index, (index + 1) * GRAIN))
    } else {
        let rounded = size.next_power_of_two();
        // 2 KiB is class FINE / GRAIN, 32 KiB the last.
        let index = FINE / GRAIN + (rounded.trailing_zeros() as usize - 11);
        Some((index, rounded))
    }
}

/// A block for `layout` when no freed block of its size is at hand (or it
/// is not a size the lists keep).
#[inline(never)]
#[cold]
fn alloc_slow(layout: Layout) -> *mut u8 {
    match class(layout) {
        Some((index, rounded)) => LISTS
            .try_with(|lists| lists.take(index, rounded))
            .unwrap_or(ptr::null_mut()),
        // SAFETY: a layout `GlobalAlloc::alloc` was given, passed on as is.
        None => unsafe { System.alloc(layout) },
    }
}

impl Lists {
    /// The first freed block of class `index`, taken off its list.
    #[inline]
    fn pop(&self, index: usize) -> Option<*mut u8> {
        let head = self.free[index].get();
        if head.is_null() {
            return None;
        }
        // SAFETY: every block on a list is at least 16 bytes, 16-aligned,
        // and its first word was written by `give` (or is the null end).
        self.free[index].set(unsafe { head.cast::<*mut u8>().read() });
        Some(head)
    }

    #[inline]
    fn take(&self, index: usize, rounded: usize) -> *mut u8 {
        if let Some(block) = self.pop(index) {
            return block;
        }
        let next = self.next.get();
        if (self.end.get() as usize).wrapping_sub(next as usize) >= rounded && !next.is_null() {
            // SAFETY: `next + rounded` stays inside the current chunk.
            self.next.set(unsafe { next.add(rounded) });
            return next;
        }
        self.refill(rounded)
    }

    #[cold]
    fn refill(&self, rounded: usize) -> *mut u8 {
        // SAFETY: a valid, non-zero layout. What is left of the old chunk is
        // abandoned: at most one block's worth.
        let chunk = unsafe { System.alloc(Layout::from_size_align_unchecked(CHUNK, GRAIN)) };
        if chunk.is_null() {
            return chunk;
        }
        // SAFETY: CHUNK ≥ SMALL ≥ rounded, so both stay inside the chunk.
        unsafe {
            self.start.set(chunk);
            self.next.set(chunk.add(rounded));
            self.end.set(chunk.add(CHUNK));
        }
        chunk
    }

    /// Puts a freed block on its class's list. Even the newest block cut
    /// goes there rather than back to the chunk: the test for it cost every
    /// free more than the reuse saved (a batch ran 1–4% faster without it).
    #[inline]
    fn give(&self, block: *mut u8, index: usize) {
        // SAFETY: the block is ours, at least 16 bytes and 16-aligned, and
        // no longer in use: its first word can hold the list link.
        unsafe { block.cast::<*mut u8>().write(self.free[index].get()) };
        self.free[index].set(block);
    }

    /// Whether `block` is the last one cut from the current chunk (a block
    /// of an older chunk that happens to end where this one's next block
    /// starts is not).
    #[inline]
    fn is_newest(&self, block: *mut u8, rounded: usize) -> bool {
        block >= self.start.get() && block.wrapping_add(rounded) == self.next.get()
    }

    /// Resizes the newest block where it lies, if the chunk has the room:
    /// a string or vector being built grows without moving or leaving its
    /// old block behind.
    #[inline]
    fn resize_newest(&self, block: *mut u8, rounded: usize, new_rounded: usize) -> bool {
        if !self.is_newest(block, rounded)
            || (self.end.get() as usize) - (block as usize) < new_rounded
        {
            return false;
        }
        self.next.set(block.wrapping_add(new_rounded));
        true
    }
}

// SAFETY: blocks handed out are at least `layout.size()` bytes, aligned to
// 16 (which covers every layout routed here), never handed out twice while
// live, and a block is only ever returned to the class its layout selects,
// which is the class it was taken from.
//
// Not inlined: the allocator is called from thousands of places, and copies
// of it at each one made the binary 15% larger and a call slower to start.
unsafe impl GlobalAlloc for Heap {
    #[inline(never)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // Most requests are small and find a freed block of their size:
        // that path pops the list and computes nothing else, with no stack
        // frame; a new block, a larger size or the system is `alloc_slow`.
        if layout.size() <= FINE && layout.align() <= GRAIN {
            let index = layout.size().saturating_sub(1) / GRAIN;
            let popped = LISTS.try_with(|lists| lists.pop(index));
            if let Ok(Some(block)) = popped {
                return block;
            }
        }
        alloc_slow(layout)
    }

    #[inline(never)]
    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        match class(layout) {
            // A thread being torn down can no longer reach its lists; the
            // block is then simply not reused.
            Some((index, _)) => {
                let _ = LISTS.try_with(|lists| lists.give(block, index));
            }
            None => System.dealloc(block, layout),
        }
    }

    #[inline(never)]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        match class(layout) {
            Some(_) => {
                let block = self.alloc(layout);
                if !block.is_null() {
                    ptr::write_bytes(block, 0, layout.size());
                }
                block
            }
            None => System.alloc_zeroed(layout),
        }
    }

    #[inline(never)]
    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
        match (class(layout), class(new_layout)) {
            // Still fits the block it has.
            (Some((old, _)), Some((new, _))) if old == new => block,
            (None, None) => System.realloc(block, layout, new_size),
            (Some((_, rounded)), Some((_, new_rounded)))
                if LISTS
                    .try_with(|lists| lists.resize_newest(block, rounded, new_rounded))
                    .unwrap_or(false) =>
            {
                block
            }
            _ => {
                let moved = self.alloc(new_layout);
                if !moved.is_null() {
                    ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
                    self.dealloc(block, layout);
                }
                moved
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_small_size_has_a_class_that_holds_it() {
        let mut last = 0;
        for size in 1..=SMALL {
            let (index, rounded) = class(Layout::from_size_align(size, 1).unwrap()).unwrap();
            assert!(
                rounded >= size && rounded % GRAIN == 0,
                "{size} → {rounded}"
            );
            assert!(index < CLASSES, "{size} → class {index}");
            assert!(index >= last, "classes grow with size");
            last = index;
            // Every size of a class rounds to the same block size.
            let (_, top) = class(Layout::from_size_align(rounded, 1).unwrap()).unwrap();
            assert_eq!(top, rounded);
        }
        assert_eq!(last, CLASSES - 1);
        assert_eq!(class(Layout::from_size_align(SMALL + 1, 1).unwrap()), None);
        assert_eq!(class(Layout::from_size_align(64, 32).unwrap()), None);
    }

    #[test]
    fn blocks_are_aligned_distinct_and_reused() {
        let heap = Heap;
        let sizes = [1, 15, 16, 17, 100, 1024, 1025, 4000, 32 * 1024, 40 * 1024];
        unsafe {
            let blocks: Vec<(*mut u8, Layout)> = (0..200)
                .map(|i| {
                    let layout = Layout::from_size_align(sizes[i % sizes.len()], 8).unwrap();
                    let block = heap.alloc(layout);
                    assert!(!block.is_null());
                    assert_eq!(block as usize % GRAIN, 0);
                    ptr::write_bytes(block, i as u8, layout.size());
                    (block, layout)
                })
                .collect();
            // No block was handed out twice: each still holds its own byte.
            for (i, (block, layout)) in blocks.iter().enumerate() {
                let bytes = std::slice::from_raw_parts(*block, layout.size());
                assert!(bytes.iter().all(|b| *b == i as u8), "block {i} overwritten");
            }
            let (first, layout) = blocks[0];
            for (block, layout) in &blocks {
                heap.dealloc(*block, *layout);
            }
            // The last block freed of a class is the next one given.
            let again = heap.alloc(layout);
            let freed_last = blocks
                .iter()
                .rev()
                .find(|(_, l)| class(*l) == class(layout))
                .map(|(b, _)| *b);
            assert_eq!(Some(again), freed_last);
            assert!(!first.is_null());
            heap.dealloc(again, layout);
        }
    }

    #[test]
    fn realloc_keeps_the_contents_across_classes_and_the_system() {
        let heap = Heap;
        unsafe {
            let mut layout = Layout::from_size_align(10, 1).unwrap();
            let mut block = heap.alloc(layout);
            for i in 0..10 {
                *block.add(i) = i as u8;
            }
            for new_size in [12, 40, 1500, 20_000, 100_000, 3, 70_000] {
                block = heap.realloc(block, layout, new_size);
                assert!(!block.is_null());
                let kept = layout.size().min(new_size).min(10);
                for i in 0..kept {
                    assert_eq!(
                        *block.add(i),
                        i as u8,
                        "byte {i} after growing to {new_size}"
                    );
                }
                layout = Layout::from_size_align(new_size, 1).unwrap();
            }
            heap.dealloc(block, layout);
            let zeroed = heap.alloc_zeroed(Layout::from_size_align(300, 8).unwrap());
            assert!(std::slice::from_raw_parts(zeroed, 300)
                .iter()
                .all(|b| *b == 0));
            heap.dealloc(zeroed, Layout::from_size_align(300, 8).unwrap());
        }
    }
}
