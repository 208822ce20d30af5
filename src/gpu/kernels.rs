//! One type per compute pipeline, built from one WGSL file each, plus the buffer
//! helpers they share. Pipelines use the shader's own bind-group layout: binding 0 is the
//! kernel's params block ([`Uniform`]), then the buffers by the names the shader gives
//! them, which [`Kernel::bind`] checks.

use super::params::Uniform;
use wgpu::util::DeviceExt;

/// The softmax kernels, each after the parameters and bindings the three share.
pub const SOFTMAX_WGSL: &str = concat!(include_str!("../../shaders/softmax_params.wgsl"), include_str!("../../shaders/softmax.wgsl"));
pub const SOFTMAX_ROWS_WGSL: &str = concat!(include_str!("../../shaders/softmax_params.wgsl"), include_str!("../../shaders/softmax_rows.wgsl"));
/// The vec4 workgroup-per-row softmax with tree reductions, and with subgroup ones.
pub const SOFTMAX_VEC4_WGSL: &str = concat!(include_str!("../../shaders/reduce_tree.wgsl"), include_str!("../../shaders/softmax_params.wgsl"), include_str!("../../shaders/softmax_vec4.wgsl"));
pub const SOFTMAX_VEC4_SUBGROUPS_WGSL: &str =
    concat!(include_str!("../../shaders/reduce_subgroups.wgsl"), include_str!("../../shaders/softmax_params.wgsl"), include_str!("../../shaders/softmax_vec4.wgsl"));
pub const COMBINE_WGSL: &str = include_str!("../../shaders/combine.wgsl");
/// The lab's λ update: its parameters and buffers, then the software adapters' kernel,
/// or the hardware GPUs' kernel with tree reductions or with subgroup ones.
pub const LAB_LAMBDA_ROWS_WGSL: &str = concat!(include_str!("../../shaders/lab_lambda_io.wgsl"), include_str!("../../shaders/lab_lambda_rows.wgsl"));
pub const LAB_LAMBDA_WG_WGSL: &str = concat!(include_str!("../../shaders/lab_lambda_io.wgsl"), include_str!("../../shaders/reduce_tree.wgsl"), include_str!("../../shaders/lab_lambda_wg.wgsl"));
pub const LAB_LAMBDA_WG_SUBGROUPS_WGSL: &str =
    concat!(include_str!("../../shaders/lab_lambda_io.wgsl"), include_str!("../../shaders/reduce_subgroups.wgsl"), include_str!("../../shaders/lab_lambda_wg.wgsl"));
pub const MATMUL_WGSL: &str = include_str!("../../shaders/matmul.wgsl");
pub const RMS_NORM_WGSL: &str = include_str!("../../shaders/rms_norm.wgsl");
pub const ROPE_WGSL: &str = include_str!("../../shaders/rope.wgsl");
pub const ELEMENTWISE_WGSL: &str = include_str!("../../shaders/elementwise.wgsl");

use super::sizes::WG_1D;

pub struct Kernel {
    pub pipeline: wgpu::ComputePipeline,
    pub layout: wgpu::BindGroupLayout,
    label: &'static str,
}

impl Kernel {
    pub fn new(device: &wgpu::Device, label: &'static str, source: &str) -> Self {
        let source = super::sizes::wgsl(source);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor { label: Some(label), source: wgpu::ShaderSource::Wgsl(source.into()) });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(label),
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        let layout = pipeline.get_bind_group_layout(0);
        Self { pipeline, layout, label }
    }

    /// Binds `params` (a `P` block) and the named buffers; the names must be the shader's
    /// (`P::BINDINGS`, checked against the shader by `tests/gpu_params.rs`), in its order.
    pub fn bind<P: Uniform>(&self, device: &wgpu::Device, params: &wgpu::Buffer, buffers: &[(&str, &wgpu::Buffer)]) -> wgpu::BindGroup {
        let named_right = buffers.len() == P::BINDINGS.len() && buffers.iter().zip(P::BINDINGS).all(|(b, name)| b.0 == *name);
        assert!(named_right, "{} binds {:?}", std::any::type_name::<P>(), P::BINDINGS);
        let all = std::iter::once(params).chain(buffers.iter().map(|b| b.1));
        let entries: Vec<wgpu::BindGroupEntry> = all.enumerate().map(|(i, b)| wgpu::BindGroupEntry { binding: i as u32, resource: b.as_entire_binding() }).collect();
        device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some(self.label), layout: &self.layout, entries: &entries })
    }

    /// Records one dispatch into `pass`.
    pub fn dispatch(&self, pass: &mut wgpu::ComputePass, group: &wgpu::BindGroup, workgroups: (u32, u32)) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups(workgroups.0, workgroups.1, 1);
    }
}

/// A 2-D grid of workgroups covering `invocations` 1-D invocations (x ≤ 65 535).
pub fn grid_1d(invocations: usize) -> (u32, u32) {
    let groups = invocations.div_ceil(WG_1D as usize).max(1);
    let x = groups.min(65_535);
    (x as u32, groups.div_ceil(x) as u32)
}

/// A uniform buffer holding a kernel's parameters.
pub fn uniform<P: Uniform>(device: &wgpu::Device, label: &str, params: &P) -> wgpu::Buffer {
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents: bytemuck::bytes_of(params), usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST })
}

pub fn write_uniform<P: Uniform>(queue: &wgpu::Queue, buffer: &wgpu::Buffer, params: &P) {
    queue.write_buffer(buffer, 0, bytemuck::bytes_of(params));
}

/// A storage buffer of `count` f32s (at least one, since bindings may not be empty).
pub fn storage(device: &wgpu::Device, label: &str, count: usize) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: (count.max(1) * 4) as u64,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    })
}

pub fn staging(device: &wgpu::Device, count: usize) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("staging"),
        size: (count.max(1) * 4) as u64,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

pub fn write_f32(queue: &wgpu::Queue, buffer: &wgpu::Buffer, data: &[f32]) {
    if !data.is_empty() {
        queue.write_buffer(buffer, 0, bytemuck::cast_slice(data));
    }
}
