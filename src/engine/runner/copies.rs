//! Copies of the runner's hottest methods compiled for the processor's vector instructions,
//! taken at run time where it has them (see [`crate::board::cpu`]).

/// The instructions the copies of [`chosen_copies`] are compiled for: x86-64-v3's vector and
/// bit instructions, which [`crate::board::cpu::vectors`] checks for. On other
/// architectures the copy is a plain function, and the `unsafe` around its calls is allowed to
/// be needless (`unused_unsafe` at each call).
macro_rules! vector_features {
    ($item:item) => {
        #[cfg_attr(
            target_arch = "x86_64",
            target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")
        )]
        $item
    };
}
pub(crate) use vector_features;

/// Whether the runner of boards of `cells` cells has the vector copies: up to six words. The
/// runner past them (eleven words, room for eight players) serves no bundled game, and its
/// copies were 0.6 MB of the release build's machine code, measured by nothing.
pub(crate) const fn has_vector_copies(cells: usize) -> bool {
    cells <= 6 * 64
}

/// Whether the direct loops of a board of `cells` cells, with joined edges where `wraps`, have
/// the vector copies: as [`has_vector_copies`], except on a board with joined edges past two
/// words, whose loops walk each direction alone. There the copies were 0.38 MB of machine
/// code, for boards no bundled game has, where they gained about a fifth of the playouts
/// (Othello on a torus or a cylinder of 12x12 and 16x16: docs/PERFORMANCE.md, "Size").
pub(crate) const fn has_direct_vector_copies(cells: usize, wraps: bool) -> bool {
    has_vector_copies(cells) && !(wraps && cells > 2 * 64)
}

/// For a method `$on::<V3>` of the runner's hot loops, written once: `$name::<V3>`, which calls
/// `$v3`, a copy of it compiled for the processor's vector instructions, when `V3` is true and
/// `$base`, the portable copy, when false. The method calls itself (and its partners) through
/// `$name::<V3>`, so a search that enters the vector copy stays in it; what is inlined into a
/// copy is compiled with it. A portable build thus carries both and takes the one
/// [`crate::board::cpu::vectors`] chose; where the build already targets those
/// instructions, both copies are the same code. (Stable Rust gives a function, not a module,
/// other target features, so each recursive method needs its copies.) The methods are those
/// of a type generic over the runner's set type, named `B`: where [`has_vector_copies`] says
/// no for it, `$v3` is never called, and so never compiled.
macro_rules! chosen_copies {
    ($name:ident, $v3:ident, $base:ident, $on:ident,
     (&self, $($arg:ident: $ty:ty),* $(,)?) -> $ret:ty) => {
        #[inline(always)]
        #[allow(clippy::too_many_arguments, unsafe_code, unused_unsafe)]
        fn $name<const V3: bool>(&self, $($arg: $ty),*) -> $ret {
            if V3 && $crate::engine::runner::copies::has_vector_copies(B::CELLS) {
                // SAFETY: `V3` is true only where `vectors()` found the instructions, or
                // inside a copy compiled for them, which was entered so.
                unsafe { self.$v3($($arg),*) }
            } else {
                self.$base($($arg),*)
            }
        }

        $crate::engine::runner::copies::vector_features! {
            #[allow(clippy::too_many_arguments)]
            fn $v3(&self, $($arg: $ty),*) -> $ret {
                self.$on::<true>($($arg),*)
            }
        }

        #[allow(clippy::too_many_arguments)]
        fn $base(&self, $($arg: $ty),*) -> $ret {
            self.$on::<false>($($arg),*)
        }
    };
    // The same for a method of a view taken by value, with the runner's `W` (the board has
    // joined edges) before `V3`.
    ($name:ident, $v3:ident, $base:ident, $on:ident,
     <const $w:ident: bool> (self, $($arg:ident: $ty:ty),* $(,)?) -> $ret:ty) => {
        #[inline(always)]
        #[allow(clippy::too_many_arguments, unsafe_code, unused_unsafe)]
        fn $name<const $w: bool, const V3: bool>(self, $($arg: $ty),*) -> $ret {
            if V3 && $crate::engine::runner::copies::has_direct_vector_copies(B::CELLS, $w) {
                // SAFETY: as in the arm above.
                unsafe { self.$v3::<$w>($($arg),*) }
            } else {
                self.$base::<$w>($($arg),*)
            }
        }

        $crate::engine::runner::copies::vector_features! {
            #[allow(clippy::too_many_arguments)]
            fn $v3<const $w: bool>(self, $($arg: $ty),*) -> $ret {
                self.$on::<$w, true>($($arg),*)
            }
        }

        #[allow(clippy::too_many_arguments)]
        fn $base<const $w: bool>(self, $($arg: $ty),*) -> $ret {
            self.$on::<$w, false>($($arg),*)
        }
    };
}
pub(crate) use chosen_copies;

/// For a loop `$on::<W>` that does not call itself (a playout's turns): `$name::<W>`, which
/// asks [`crate::board::cpu::vectors`] and runs `$v3`, a copy of the loop compiled
/// for the processor's vector instructions, or the loop itself. `W`: the board has joined
/// edges, as the runner's direct loops take it. As above, the set type is named `B`.
macro_rules! chosen_entry {
    ($name:ident, $v3:ident, $on:ident,
     (self, $($arg:ident: $ty:ty),* $(,)?) -> $ret:ty) => {
        #[allow(clippy::too_many_arguments, unsafe_code, unused_unsafe)]
        fn $name<const W: bool>(self, $($arg: $ty),*) -> $ret {
            if $crate::engine::runner::copies::has_direct_vector_copies(B::CELLS, W)
                && $crate::board::cpu::vectors()
            {
                // SAFETY: the processor has the copy's instructions (`vectors`).
                unsafe { self.$v3::<W>($($arg),*) }
            } else {
                self.$on::<W>($($arg),*)
            }
        }

        $crate::engine::runner::copies::vector_features! {
            #[allow(clippy::too_many_arguments)]
            fn $v3<const W: bool>(self, $($arg: $ty),*) -> $ret {
                self.$on::<W>($($arg),*)
            }
        }
    };
}
pub(crate) use chosen_entry;

/// For a step method `$here` of the runner (written `#[inline(always)]`): `$name`, which runs it
/// inlined into its caller on narrow boards and through `$out`, one copy per width that every
/// caller shares, where [`super::Runner::STEPS_OUT_OF_LINE`] says so. Written once for each
/// such method, so that the signature and the choice are not copied by hand. Callers that run
/// one step per call of their own (a step applied, a search's node) call `$out` on every
/// width: an inlined copy there is machine code that wins nothing.
macro_rules! steps_out_of_line {
    ($(#[$meta:meta])* $vis:vis fn $name:ident, $out:ident, $here:ident,
     (&self, $($arg:ident: $ty:ty),* $(,)?) -> $ret:ty) => {
        $(#[$meta])*
        #[inline(always)]
        $vis fn $name(&self, $($arg: $ty),*) -> $ret {
            if Self::STEPS_OUT_OF_LINE {
                self.$out($($arg),*)
            } else {
                self.$here($($arg),*)
            }
        }

        #[inline(never)]
        $vis fn $out(&self, $($arg: $ty),*) -> $ret {
            self.$here($($arg),*)
        }
    };
}
pub(crate) use steps_out_of_line;
