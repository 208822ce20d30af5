//! Getting a GPU: instance, adapter and device, each step of which may fail in a browser
//! (no `navigator.gpu`, no adapter, a refused device). Every failure becomes a sentence a
//! student can read, and the page falls back to the CPU path.

use std::fmt;

/// Why the GPU path is not available.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuUnavailable(pub String);

impl fmt::Display for GpuUnavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A device and queue, with what the page reports about them.
pub struct GpuContext {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    /// The adapter's name as the browser or driver reports it (may be generic).
    pub adapter_name: String,
    pub limits: wgpu::Limits,
    /// A software adapter (SwiftShader, lavapipe/llvmpipe, WARP): kernels that suit CPU
    /// cores are picked (see `gpu::layout`).
    pub software: bool,
}

/// Whether an adapter's name marks it as a software implementation. Browsers rarely
/// report a device type, so the name is what there is.
pub fn looks_software(name: &str) -> bool {
    let name = name.to_lowercase();
    ["swiftshader", "llvmpipe", "lavapipe", "software", "microsoft basic render"].iter().any(|s| name.contains(s))
}

impl GpuContext {
    /// Requests a high-performance adapter and a device with the adapter's own limits
    /// (the defaults are lower than most GPUs offer; larger maps need the real ones).
    /// No optional feature is required, so any WebGPU implementation qualifies; the
    /// `subgroups` feature is asked for where the adapter has it (natively on Vulkan,
    /// DX12 and Metal; wgpu does not expose it in browsers yet), and the softmax then
    /// reduces with subgroup operations (`gpu::softmax`).
    pub async fn request(backends: wgpu::Backends) -> Result<Self, GpuUnavailable> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = backends;
        let instance = wgpu::Instance::new(desc);
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions { power_preference: wgpu::PowerPreference::HighPerformance, ..Default::default() })
            .await
            .map_err(|e| GpuUnavailable(format!("no WebGPU adapter ({e})")))?;
        let info = adapter.get_info();
        let limits = adapter.limits();
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("difflens"),
                required_limits: limits.clone(),
                required_features: adapter.features() & wgpu::Features::SUBGROUP,
                ..Default::default()
            })
            .await
            .map_err(|e| GpuUnavailable(format!("the GPU refused a device ({e})")))?;
        let software = info.device_type == wgpu::DeviceType::Cpu || looks_software(&info.name);
        Ok(Self { device, queue, adapter_name: info.name, limits, software })
    }
}

#[cfg(test)]
mod tests {
    use super::looks_software;

    #[test]
    fn software_adapters_are_recognised_by_name() {
        for name in ["google swiftshader", "SwiftShader Device (Subzero)", "llvmpipe (LLVM 19.1.7, 256 bits)", "Microsoft Basic Render Driver"] {
            assert!(looks_software(name), "{name}");
        }
        for name in ["", "nvidia ampere", "AMD Radeon RX 7900", "Apple M2"] {
            assert!(!looks_software(name), "{name}");
        }
    }
}
