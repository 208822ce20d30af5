//! How much memory a run needs, estimated before anything T × T is allocated, and how
//! much the machine gives it: a run that cannot fit is refused with both figures and the
//! way out, instead of the allocator aborting halfway.

use crate::core::attention::ROW_BLOCK;

const F32: u128 = 4;

/// The memory one run needs, by what it is for (bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Need {
    /// The files as read and their tensors as f32.
    pub held: u128,
    /// `x`, `out`, the projections and one block of scores.
    pub working: u128,
    /// The T × T maps of the requested heads (A1, A2, A_diff for every batch entry, plus
    /// the maps of the entry being computed).
    pub maps: u128,
    /// What the maps of one head add.
    pub per_head: u128,
}

impl Need {
    /// `held`: bytes already in memory (files and their tensors); `b, t, e`: the input's
    /// shape; `h`: the layer's heads; `map_heads`: how many heads' maps are written.
    pub fn of(held: u128, (b, t, e): (usize, usize, usize), h: usize, map_heads: usize) -> Self {
        let (b, t, e, h) = (b as u128, t as u128, e as u128, h as u128);
        let per_head = 3 * t * t * F32 * (b + 1);
        let working = F32 * (3 * b * t * e + 8 * t * e + 4 * ROW_BLOCK as u128 * t + t * h);
        Self { held, working, maps: per_head * map_heads as u128, per_head }
    }

    pub fn total(&self) -> u128 {
        self.held + self.working + self.maps
    }

    /// Refuses a run that needs more than `budget`, naming both and what to do instead.
    pub fn fits(&self, budget: &Budget) -> Result<(), String> {
        if self.total() <= budget.bytes {
            return Ok(());
        }
        let mut message = format!("this run needs about {} but {} is available ({})", size(self.total()), size(budget.bytes), budget.source);
        if self.maps > 0 {
            let without = self.held + self.working;
            message += &format!(
                ": the T × T maps alone take {} ({} per head). Use --no-maps (then it needs {}), or --map-heads with fewer heads, or raise --max-memory",
                size(self.maps),
                size(self.per_head),
                size(without)
            );
        } else {
            message += ": the input and output themselves do not fit; run a shorter input or raise --max-memory";
        }
        Err(message)
    }
}

/// How much memory a run may use, and where that figure came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Budget {
    pub bytes: u128,
    pub source: String,
}

impl Budget {
    pub fn given(gib: f64) -> Self {
        Self { bytes: (gib * (1u128 << 30) as f64) as u128, source: "--max-memory".into() }
    }

    /// The smallest of what the machine reports free (`MemAvailable`), this process's
    /// address-space limit (`ulimit -v`) and its cgroup's limit; `None` when none is known.
    pub fn of_machine() -> Option<Self> {
        let read = |p: &str| std::fs::read_to_string(p).ok();
        let mut options = vec![];
        if let Some(kib) = read("/proc/meminfo").as_deref().and_then(|s| field(s, "MemAvailable:")) {
            options.push(Self { bytes: kib * 1024, source: "free memory on this machine".into() });
        }
        let used_kib = read("/proc/self/status").as_deref().and_then(|s| field(s, "VmSize:")).unwrap_or(0);
        if let Some(limit) = read("/proc/self/limits").as_deref().and_then(address_space_limit) {
            options.push(Self { bytes: limit.saturating_sub(used_kib * 1024), source: "the address-space limit, ulimit -v".into() });
        }
        if let (Some(max), Some(current)) = (read("/sys/fs/cgroup/memory.max"), read("/sys/fs/cgroup/memory.current")) {
            if let (Ok(max), Ok(current)) = (max.trim().parse::<u128>(), current.trim().parse::<u128>()) {
                options.push(Self { bytes: max.saturating_sub(current), source: "this container's memory limit".into() });
            }
        }
        options.into_iter().min_by_key(|b| b.bytes)
    }
}

/// The number after `key` on its line (`/proc` files), e.g. `MemAvailable:  123 kB` → 123.
fn field(text: &str, key: &str) -> Option<u128> {
    let line = text.lines().find(|l| l.starts_with(key))?;
    line[key.len()..].split_whitespace().next()?.parse().ok()
}

/// The soft limit of "Max address space" in `/proc/self/limits` (`None` when unlimited).
fn address_space_limit(text: &str) -> Option<u128> {
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    line["Max address space".len()..].split_whitespace().next()?.parse().ok()
}

/// Bytes in binary units with three significant figures: "40.0 MiB", "12.1 GiB".
pub fn size(bytes: u128) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut v = bytes as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < units.len() {
        v /= 1024.0;
        unit += 1;
    }
    match unit {
        0 => format!("{bytes} bytes"),
        _ if v >= 100.0 => format!("{v:.0} {}", units[unit]),
        _ if v >= 10.0 => format!("{v:.1} {}", units[unit]),
        _ => format!("{v:.2} {}", units[unit]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_input_with_maps_is_refused_with_the_way_out() {
        // T = 16384, 4 heads, E = 64: each head's maps are 3 × 16384² × 4 bytes × (B + 1).
        let need = Need::of(1 << 20, (1, 16384, 64), 4, 4);
        assert_eq!(need.per_head, 3 * 16384 * 16384 * 4 * 2);
        let budget = Budget::given(4.0);
        let err = need.fits(&budget).unwrap_err();
        assert!(err.contains("--no-maps") && err.contains("6.00 GiB per head") && err.contains("4.00 GiB is available"), "{err}");
        let streamed = Need::of(1 << 20, (1, 16384, 64), 4, 0);
        assert!(streamed.fits(&budget).is_ok(), "without maps the same input runs: {}", size(streamed.total()));
    }

    #[test]
    fn proc_files_are_read_by_field() {
        assert_eq!(field("MemTotal: 10 kB\nMemAvailable:    2048 kB\n", "MemAvailable:"), Some(2048));
        let limits = "Limit  Soft Limit  Hard Limit  Units\nMax address space         4294967296           unlimited            bytes\n";
        assert_eq!(address_space_limit(limits), Some(4294967296));
        assert_eq!(address_space_limit("Max address space         unlimited            unlimited            bytes"), None);
        assert_eq!(size(40 << 20), "40.0 MiB");
        assert_eq!(size(1023), "1023 bytes");
    }
}
