//! The processor's bit instructions, chosen when the program runs. Counting a set's cells and
//! finding its k-th cell are the innermost steps of perft, playouts and the solver; x86-64
//! processors made since about 2008 count a word in one instruction (`popcnt`) and most since
//! 2013 find the k-th bit in one (`pdep`), but the baseline x86-64 a portable binary is built
//! for has neither, and the compiler's stand-ins take a dozen instructions or a loop.
//!
//! So a portable x86-64 build asks the processor once, at the first count, and takes the one
//! instruction where it exists. The instruction is written as inline assembly: unlike an
//! intrinsic, it needs no target feature on the function around it, so it inlines into every
//! generic caller of the runner, and costs a well-predicted test of one flag. Where the build
//! already targets a processor with the instructions (`-C target-cpu=native`), or on other
//! architectures, the choice is made when compiling and the plain Rust operations are used.
//!
//! The same first question finds whether the processor has x86-64-v3's vector and bit
//! instructions ([`vectors`]): the runner's hottest loops have copies compiled for them
//! (`engine::runner::copies`).
//!
//! `OUTFLANK_CPU=baseline` in the environment forces the stand-ins and the portable copies, so
//! that one binary can be tested both ways (the tests compare the two).

#[cfg(all(
    target_arch = "x86_64",
    not(all(target_feature = "popcnt", target_feature = "bmi2"))
))]
mod chosen {
    use std::sync::atomic::{AtomicU8, Ordering};

    pub(super) const AT_RUN_TIME: bool = true;

    const UNKNOWN: u8 = 0;
    const BASELINE: u8 = 1;
    const POPCNT: u8 = 2;
    const POPCNT_BMI2: u8 = 3;
    /// And AVX2, BMI1 and LZCNT: what the runner's hottest loops are also compiled for.
    const VECTORS: u8 = 4;

    /// What the processor has, found at the first question.
    static LEVEL: AtomicU8 = AtomicU8::new(UNKNOWN);

    #[inline(always)]
    fn level() -> u8 {
        match LEVEL.load(Ordering::Relaxed) {
            UNKNOWN => detect(),
            known => known,
        }
    }

    #[cold]
    fn detect() -> u8 {
        let level = if super::forced_baseline() || !std::is_x86_feature_detected!("popcnt") {
            BASELINE
        } else if std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("lzcnt")
        {
            VECTORS
        } else if std::is_x86_feature_detected!("bmi2") {
            POPCNT_BMI2
        } else {
            POPCNT
        };
        LEVEL.store(level, Ordering::Relaxed);
        level
    }

    pub(super) fn names() -> &'static str {
        match level() {
            VECTORS => "popcnt, pdep, avx2 (chosen at run time)",
            POPCNT_BMI2 => "popcnt, pdep (chosen at run time)",
            POPCNT => "popcnt (chosen at run time)",
            _ if super::forced_baseline() => "baseline x86-64 (forced by OUTFLANK_CPU=baseline)",
            _ => "baseline x86-64 (the processor has no popcnt)",
        }
    }

    #[inline(always)]
    pub(super) fn vectors() -> bool {
        level() == VECTORS
    }

    #[inline(always)]
    // Inline assembly is unsafe to write; the instruction reads and writes registers only.
    #[allow(unsafe_code)]
    pub(super) fn ones(w: u64) -> u32 {
        if level() >= POPCNT {
            let n: u64;
            // SAFETY: taken only where the processor reported POPCNT (`detect`).
            unsafe {
                std::arch::asm!("popcnt {n}, {w}", w = in(reg) w, n = lateout(reg) n,
                    options(pure, nomem, nostack));
            }
            n as u32
        } else {
            w.count_ones()
        }
    }

    #[inline(always)]
    #[allow(unsafe_code)]
    pub(super) fn nth(w: u64, k: usize) -> usize {
        if level() >= POPCNT_BMI2 {
            let bit: u64;
            // SAFETY: taken only where the processor reported BMI2 (`detect`).
            unsafe {
                std::arch::asm!("pdep {bit}, {one}, {w}", one = in(reg) 1u64 << k, w = in(reg) w,
                    bit = lateout(reg) bit, options(pure, nomem, nostack, preserves_flags));
            }
            bit.trailing_zeros() as usize
        } else {
            super::nth_by_clearing(w, k)
        }
    }
}

/// Where the build's target already says which instructions exist: the compiler's choice.
#[cfg(not(all(
    target_arch = "x86_64",
    not(all(target_feature = "popcnt", target_feature = "bmi2"))
)))]
mod chosen {
    pub(super) const AT_RUN_TIME: bool = false;

    pub(super) fn names() -> &'static str {
        match (cfg!(target_arch = "x86_64"), super::forced_baseline()) {
            (true, false) => "popcnt, pdep (chosen when compiling)",
            (true, true) => {
                "popcnt, pdep (chosen when compiling: OUTFLANK_CPU=baseline cannot change a \
                 build for this processor)"
            }
            (false, _) => "the target's own (chosen when compiling)",
        }
    }

    #[inline(always)]
    pub(super) fn vectors() -> bool {
        false
    }

    #[inline(always)]
    pub(super) fn ones(w: u64) -> u32 {
        w.count_ones()
    }

    #[inline(always)]
    // The intrinsic's only requirement is the target feature, which the cfg of this module
    // guarantees on x86-64.
    #[allow(unsafe_code)]
    pub(super) fn nth(w: u64, k: usize) -> usize {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: this module is compiled on x86-64 only with `bmi2` enabled.
            unsafe { std::arch::x86_64::_pdep_u64(1 << k, w).trailing_zeros() as usize }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            super::nth_by_clearing(w, k)
        }
    }
}

/// The environment variable that forces the baseline instructions, and its one value.
pub const SWITCH: &str = "OUTFLANK_CPU";
pub const BASELINE: &str = "baseline";

fn forced_baseline() -> bool {
    std::env::var_os(SWITCH).is_some_and(|v| v == BASELINE)
}

/// Checks the switch's value, for the command line to report a misspelt one instead of
/// quietly running with the fast instructions. Set but empty counts as unset, as a shell's
/// `OUTFLANK_CPU= outflank ...` means it.
pub fn check_switch() -> Result<(), String> {
    match std::env::var(SWITCH) {
        Err(std::env::VarError::NotPresent) => Ok(()),
        Ok(v) if v.is_empty() || v == BASELINE || v == "auto" => Ok(()),
        Ok(v) => Err(format!(
            "{SWITCH}={v:?} is not a setting: use {SWITCH}={BASELINE} to run without the \
             processor's bit instructions, or leave it unset or empty"
        )),
        Err(_) => Err(format!(
            "{SWITCH} is not valid text: use {SWITCH}={BASELINE}"
        )),
    }
}

/// Whether this build asks the processor which instructions it has (a portable x86-64 build),
/// rather than the compiler having chosen for it.
pub fn chosen_at_run_time() -> bool {
    chosen::AT_RUN_TIME
}

/// Which bit instructions counting and drawing use, in words (for `bench`).
pub fn names() -> &'static str {
    chosen::names()
}

/// Whether the runner's hottest loops take their copies compiled for AVX2, BMI1/2, LZCNT and
/// POPCNT (x86-64-v3's bit and vector instructions): a portable x86-64 build on a processor
/// that has them. False where the whole build already targets them, or cannot.
#[inline(always)]
pub fn vectors() -> bool {
    chosen::vectors()
}

/// Asks the processor which instructions it has, and reads the switch, now rather than on the
/// first count: the switch's value is read into an allocation, which the first step a runner
/// lists would otherwise make (tests/allocation.rs holds the listing to none).
pub fn settle() {
    let _ = ones(0);
}

/// How many bits of `w` are set.
#[inline(always)]
pub fn ones(w: u64) -> u32 {
    chosen::ones(w)
}

/// The position of the k-th set bit of `w`, lowest first (k < ones(w)).
#[inline(always)]
pub fn nth(w: u64, k: usize) -> usize {
    chosen::nth(w, k)
}

/// The k-th set bit found by clearing the lower ones one at a time: the stand-in for `pdep`.
#[inline(always)]
#[cfg_attr(
    all(
        target_arch = "x86_64",
        target_feature = "popcnt",
        target_feature = "bmi2"
    ),
    allow(dead_code)
)]
fn nth_by_clearing(w: u64, k: usize) -> usize {
    let mut w = w;
    for _ in 0..k {
        w &= w - 1;
    }
    w.trailing_zeros() as usize
}
