//! Reading a GPU buffer back: copy into a mappable staging buffer, then await
//! `map_async`. Natively the device is polled until the copy is done; in the browser the
//! future resolves from the event loop, never blocking it.

use futures_channel::oneshot;

/// Reads `count` f32s from `src` through `staging` (MAP_READ | COPY_DST, large enough).
pub async fn read_f32(device: &wgpu::Device, queue: &wgpu::Queue, src: &wgpu::Buffer, staging: &wgpu::Buffer, count: usize) -> Result<Vec<f32>, String> {
    let mut parts = read_many(device, queue, &[(src, count)], staging).await?;
    Ok(parts.pop().unwrap_or_default())
}

/// Reads several buffers (`(buffer, f32 count)`) with one copy submission and one
/// `map_async`: in a browser every map is a round trip to the GPU process, so a λ
/// update pays it once.
pub async fn read_many(device: &wgpu::Device, queue: &wgpu::Queue, sources: &[(&wgpu::Buffer, usize)], staging: &wgpu::Buffer) -> Result<Vec<Vec<f32>>, String> {
    let bytes: u64 = sources.iter().map(|(_, n)| (*n * 4) as u64).sum();
    if bytes == 0 {
        return Ok(sources.iter().map(|_| vec![]).collect());
    }
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("readback") });
    let mut offset = 0u64;
    for (src, n) in sources {
        let len = (*n * 4) as u64;
        if len > 0 {
            encoder.copy_buffer_to_buffer(src, 0, staging, offset, len);
        }
        offset += len;
    }
    queue.submit([encoder.finish()]);
    let (tx, rx) = oneshot::channel();
    staging.map_async(wgpu::MapMode::Read, 0..bytes, move |r| {
        let _ = tx.send(r);
    });
    #[cfg(not(target_arch = "wasm32"))]
    device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| format!("GPU poll failed: {e}"))?;
    rx.await.map_err(|_| "the GPU readback was cancelled".to_string())?.map_err(|e| format!("GPU readback failed: {e}"))?;
    // Each part is decoded straight from the mapped bytes: one copy, not two (the maps of
    // a new N = 2048 problem are 32 MB).
    let parts = {
        let view = staging.get_mapped_range(0..bytes).map_err(|e| format!("GPU readback failed: {e}"))?;
        let mut rest: &[u8] = &view;
        sources
            .iter()
            .map(|(_, n)| {
                let (head, tail) = rest.split_at(*n * 4);
                rest = tail;
                head.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
            })
            .collect()
    };
    staging.unmap();
    Ok(parts)
}
