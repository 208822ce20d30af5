//! Reading a GPU buffer back: copy into a mappable staging buffer, then await
//! `map_async`. Natively the device is polled until the copy is done; in the browser the
//! future resolves from the event loop, never blocking it.

use futures_channel::oneshot;
use std::future::Future;
use std::pin::Pin;

/// Reads `count` f32s from `src` through `staging` (MAP_READ | COPY_DST, large enough).
pub async fn read_f32(device: &wgpu::Device, queue: &wgpu::Queue, src: &wgpu::Buffer, staging: &wgpu::Buffer, count: usize) -> Result<Vec<f32>, String> {
    let mut parts = read_many(device, queue, &[(src, count)], staging).await?;
    Ok(parts.pop().unwrap_or_default())
}

/// Something to await between pieces of a long readback (in a browser: a yield to the
/// event loop, so the page paints while 32 MB of maps are decoded).
pub type Pace<'a> = &'a dyn Fn() -> Pin<Box<dyn Future<Output = ()> + 'a>>;

/// The mapped bytes decoded per piece when paced: a few milliseconds of copying.
const PACED_BYTES: u64 = 4 << 20;

/// Reads several buffers (`(buffer, f32 count)`) with one copy submission and one
/// `map_async`: in a browser every map is a round trip to the GPU process, so a λ
/// update pays it once.
pub async fn read_many(device: &wgpu::Device, queue: &wgpu::Queue, sources: &[(&wgpu::Buffer, usize)], staging: &wgpu::Buffer) -> Result<Vec<Vec<f32>>, String> {
    read_many_paced(device, queue, sources, staging, &|| Box::pin(async {})).await
}

/// [`read_many`], decoding the mapped bytes a few megabytes at a time with `pace()`
/// awaited between pieces.
pub async fn read_many_paced(device: &wgpu::Device, queue: &wgpu::Queue, sources: &[(&wgpu::Buffer, usize)], staging: &wgpu::Buffer, pace: Pace<'_>) -> Result<Vec<Vec<f32>>, String> {
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
    // a new N = 2048 problem are 32 MB), a piece at a time. Pieces start at multiples of
    // 8 bytes (WebGPU's mapping alignment) and hold whole f32s; a piece may end one part
    // and start the next.
    let mut parts: Vec<Vec<f32>> = sources.iter().map(|(_, n)| Vec::with_capacity(*n)).collect();
    let (mut part, mut start) = (0, 0u64);
    while start < bytes {
        let end = (start + PACED_BYTES).min(bytes);
        {
            let view = staging.get_mapped_range(start..end).map_err(|e| format!("GPU readback failed: {e}"))?;
            let mut rest: &[u8] = &view;
            while !rest.is_empty() {
                while parts[part].len() == sources[part].1 {
                    part += 1;
                }
                let room = (sources[part].1 - parts[part].len()) * 4;
                let (head, tail) = rest.split_at(room.min(rest.len()));
                parts[part].extend(head.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])));
                rest = tail;
            }
        }
        start = end;
        if start < bytes {
            pace().await;
        }
    }
    staging.unmap();
    Ok(parts)
}
