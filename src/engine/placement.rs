//! Where one of the explorer's forward passes runs, and why: WebGPU when the adapter is
//! a hardware GPU (a software one such as SwiftShader is many times slower than the
//! CPU core on these tiny models), the CPU core otherwise, unless the reader forces
//! either. The page says the decision's sentence under every number it computed.

pub use crate::state::model_state::ComputeOn;
use crate::state::model_state::ModelState;
use crate::tr;

/// The page's WebGPU adapter as the decision needs it.
#[derive(Clone, Copy, Debug)]
pub struct Adapter<'a> {
    pub name: &'a str,
    /// A software renderer (its device type, or its name: `gpu::context::looks_software`).
    pub software: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Placement {
    Gpu { adapter: String },
    Cpu { why: String },
}

impl Placement {
    /// The decision for the reader's `choice`, the page's WebGPU adapter (`None`: the
    /// browser has none, or lost it) and the logit precision (`Some`: quantised, which
    /// only the CPU core computes).
    pub fn decide(choice: ComputeOn, adapter: Option<Adapter>, bits: Option<u32>) -> Self {
        let cpu = |why: String| Placement::Cpu { why };
        match (choice, adapter) {
            (ComputeOn::Cpu, _) => cpu(tr!("why-chosen")),
            (_, None) => cpu(tr!("why-no-webgpu")),
            (_, Some(_)) if bits.is_some() => cpu(tr!("why-bits", bits = bits.unwrap_or(32))),
            (ComputeOn::Auto, Some(a)) if a.software => cpu(tr!("why-software", adapter = a.name)),
            (_, Some(a)) => Placement::Gpu { adapter: a.name.to_string() },
        }
    }

    /// The decision for an explorer state, the adapter as the page holds it (its name,
    /// and whether it is a software renderer).
    pub fn for_state(state: &ModelState, adapter: Option<&(String, bool)>) -> Self {
        Self::for_choice(state.on, adapter, state.bits)
    }

    /// [`Placement::for_state`] for any page: the reader's choice and logit precision.
    pub fn for_choice(choice: ComputeOn, adapter: Option<&(String, bool)>, bits: Option<u32>) -> Self {
        Self::decide(choice, adapter.map(|(name, software)| Adapter { name, software: *software }), bits)
    }

    /// The decision while the page is still asking the browser for its WebGPU adapter:
    /// the CPU core for now (the same numbers; a hardware adapter, once it answers, runs
    /// the passes again there), and says so, unless the state decides without an adapter
    /// (the CPU core chosen, quantised logits).
    pub fn while_asking(state: &ModelState) -> Self {
        Self::while_asking_on(state.on, state.bits)
    }

    /// [`Placement::while_asking`] for any page: the reader's choice and logit precision.
    pub fn while_asking_on(choice: ComputeOn, bits: Option<u32>) -> Self {
        match Self::decide(choice, Some(Adapter { name: "", software: false }), bits) {
            Placement::Gpu { .. } => Placement::Cpu { why: tr!("why-asking") },
            decided => decided,
        }
    }

    pub fn on_gpu(&self) -> bool {
        matches!(self, Placement::Gpu { .. })
    }

    /// "WebGPU" or "the CPU core": where, in two words (for a timing line).
    pub fn short(&self) -> String {
        match self {
            Placement::Gpu { .. } => "WebGPU".to_string(),
            Placement::Cpu { .. } => tr!("short-cpu"),
        }
    }

    /// The sentence under a column: where its numbers were computed, and why there.
    pub fn sentence(&self) -> String {
        match self {
            Placement::Gpu { adapter } => tr!("computed-gpu", adapter = adapter),
            Placement::Cpu { why } => tr!("computed-cpu", why = why),
        }
    }

    /// A GPU run that failed, redone on the CPU core: says what failed.
    pub fn fell_back(error: &str) -> Self {
        Placement::Cpu { why: tr!("why-fell-back", error = error) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HW: Option<Adapter> = Some(Adapter { name: "nvidia hopper", software: false });
    const SW: Option<Adapter> = Some(Adapter { name: "google swiftshader", software: true });

    #[test]
    fn auto_takes_a_hardware_gpu_and_leaves_a_software_one() {
        let hw = Placement::decide(ComputeOn::Auto, HW, None);
        assert_eq!(hw, Placement::Gpu { adapter: "nvidia hopper".into() });
        assert_eq!(hw.sentence(), "Computed on WebGPU (nvidia hopper).");
        let sw = Placement::decide(ComputeOn::Auto, SW, None);
        assert!(!sw.on_gpu() && sw.sentence().contains("software renderer"), "{sw:?}");
        assert!(Placement::decide(ComputeOn::Gpu, SW, None).on_gpu(), "forcing WebGPU uses even a software adapter");
    }

    #[test]
    fn the_cpu_when_asked_absent_or_quantised() {
        assert_eq!(Placement::decide(ComputeOn::Cpu, HW, None), Placement::Cpu { why: "you chose the CPU core".into() });
        for choice in ComputeOn::ALL {
            assert!(!Placement::decide(choice, None, None).on_gpu(), "{choice:?} without WebGPU");
        }
        for choice in [ComputeOn::Auto, ComputeOn::Gpu] {
            let q = Placement::decide(choice, HW, Some(4));
            assert!(!q.on_gpu() && q.sentence().contains("4-bit attention logits are computed on the CPU core only"), "{q:?}");
        }
        assert!(Placement::fell_back("device lost").sentence().contains("WebGPU failed (device lost)"));
        let hw = ("nvidia hopper".to_string(), false);
        assert!(Placement::for_state(&ModelState::default(), Some(&hw)).on_gpu(), "a fresh visit on a hardware GPU runs there");
        assert!(!Placement::for_state(&ModelState { bits: Some(8), ..ModelState::default() }, Some(&hw)).on_gpu());
    }

    #[test]
    fn while_the_browser_is_asked_the_cpu_says_so_unless_the_state_decides() {
        assert_eq!(Placement::while_asking(&ModelState::default()).sentence(), "Computed on the CPU core (WebAssembly): the browser has not yet said which WebGPU adapter it has.");
        assert_eq!(Placement::while_asking(&ModelState { on: ComputeOn::Gpu, ..ModelState::default() }), Placement::Cpu { why: tr!("why-asking") });
        assert_eq!(Placement::while_asking(&ModelState { on: ComputeOn::Cpu, ..ModelState::default() }), Placement::Cpu { why: "you chose the CPU core".into() });
        assert!(Placement::while_asking(&ModelState { bits: Some(4), ..ModelState::default() }).sentence().contains("4-bit"));
    }
}
