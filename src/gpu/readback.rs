//! Reading a GPU buffer back: copy into a mappable staging buffer, then await
//! `map_async`. Natively the device is polled until the copy is done; in the browser the
//! future resolves from the event loop, never blocking it.

use futures_channel::oneshot;

/// Reads `count` f32s from `src` through `staging` (MAP_READ | COPY_DST, large enough).
pub async fn read_f32(device: &wgpu::Device, queue: &wgpu::Queue, src: &wgpu::Buffer, staging: &wgpu::Buffer, count: usize) -> Result<Vec<f32>, String> {
    let bytes = (count * 4) as u64;
    if bytes == 0 {
        return Ok(vec![]);
    }
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("readback") });
    encoder.copy_buffer_to_buffer(src, 0, staging, 0, bytes);
    queue.submit([encoder.finish()]);
    let (tx, rx) = oneshot::channel();
    staging.map_async(wgpu::MapMode::Read, 0..bytes, move |r| {
        let _ = tx.send(r);
    });
    #[cfg(not(target_arch = "wasm32"))]
    device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| format!("GPU poll failed: {e}"))?;
    rx.await.map_err(|_| "the GPU readback was cancelled".to_string())?.map_err(|e| format!("GPU readback failed: {e}"))?;
    let data = {
        let view = staging.get_mapped_range(0..bytes).map_err(|e| format!("GPU readback failed: {e}"))?;
        view.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
    };
    staging.unmap();
    Ok(data)
}
