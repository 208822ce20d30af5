# The noise-floor lab (#/lab).

lab-title = Noise-floor lab
lab-intro = Each row is a query, each column a key. A few keys truly match every query (the signal keys, ticked above the maps); all the others get random scores. Softmax gives every one of them a little weight: that is the noise floor. Differential attention computes a second map whose noise is partly the same, and subtracts it.
lab-dev-summary = For developers: checking the GPU
lab-dev-explain = On the WebGPU path the maps are computed on the GPU; this recomputes them on the CPU and compares, together with the GPU's own λ kernels, and the maps and λ kernels from the other set of GPU kernels (one workgroup per row for hardware GPUs, one invocation per row for software ones), so both are checked on this device.
lab-a1-explain = Standard attention. The ticked columns are the signal keys, as bright as the signal strength makes them; the speckle everywhere else is weight lost to noise.
lab-a2-explain = The second branch sees no signal, only noise, of which the “shared” share is the same as A1's. It measures the noise floor.
lab-diff-explain = Blue is negative, red positive, white zero. Where the noise was shared it cancels to white; the signal columns stay. Set λ to 0: the difference is just A1.
lab-colour-scale = Colour scale
lab-contrast-explain = Square root and log make the faint noise floor visible; linear shows true proportions.
lab-chart-lambda-label = SNR of differential attention against λ
lab-chart-lambda-explain = Signal-to-noise ratio of A1 − λ·A2 as λ varies (log scale). At λ = 0 it is standard attention; too large a λ subtracts the signal too. The best λ cancels as much shared noise as possible.
lab-chart-noise-label = SNR against noise amplitude
lab-chart-noise-empty = Computing the first noise level…
lab-chart-noise-explain = As the noise grows, standard attention's SNR falls until a signal key gets less than twice the weight of an average noise key: there it stops being usable. Differential attention holds on longer when the noise is shared.
lab-chart-context-empty = Computing the noise mass at eight context lengths…
lab-chart-context-explain = The total weight one query puts on noise keys, from 1k to 128k keys (log axis). Each noise key gets almost nothing, but they add up: 0.0001% per key over 128 000 keys is 12.8% (0.001% would be 128%, impossible, since a softmax row sums to 1). The differential curve adds up |weight| of A1 − λ·A2: its rows sum to 1 − λ but hold positive and negative weights, so its total can exceed 1.
lab-verify-cpu = This problem was computed on the CPU, so there is no GPU result to compare.
lab-verify = Verify GPU against CPU
lab-lambda-init-depth = λ_init of layer depth
lab-lambda-init-explain = λ_init = 0.8 − 0.6·e^(−0.3·depth), the paper's schedule.
lab-new-sample = New sample
lab-copy-link = Copy link
lab-readout-standard = SNR, standard attention (A1)
lab-readout-diff = SNR, differential (A1 − λ·A2)
lab-readout-gain = Differential ÷ standard
lab-readout-row-sum = Every row of A1 − λ·A2 sums to 1 − λ
lab-mass-explain = Attention mass per query (the paper's Table 3, in miniature): weight on the signal keys and total |weight| on the rest.
th-attention = attention
th-on-signal = on signal
th-on-noise = on noise
lab-standard-a1 = standard (A1)
lab-chart-row-label = Weights of the selected query over the keys
lab-row-explain = Red dots mark the signal keys. Blue: standard attention (A1), which gives every key some weight. Orange: A1 − λ·A2 at the current λ; where the two branches share their noise it stays near zero away from the signal keys, and it may dip below zero.
lab-on-cpu = CPU (WebAssembly)
lab-computing = Computing the maps for N = { $n }…
lab-computing-new = Computing new maps for N = { $n }… Until they are ready, the maps below show the previous settings (N = { $have }).
lab-cell = query i = { $i }, key j = { $j }
lab-cell-signal = query i = { $i }, key j = { $j }  (signal key)
lab-pooled = { $n } × { $n } maps shown at { $r } × { $r } pixels: each pixel shows the largest-magnitude entry of its block (max-magnitude pooling), so single spikes stay visible.
lab-not-pooled = { $n } × { $n } maps: every entry is drawn as one cell, nothing is pooled.
lab-noise-progress = Computing noise level { $k } of { $all } (each one a whole problem)…
lab-noise-done = { $all } noise levels, σ from 0 to 6.
lab-verify-failed = The GPU check failed: { $error }.
link-copied = Link copied: { $link }
link-not-copied = The browser did not allow copying; copy it from here: { $link }
lab-set-lambda-init = Set λ = λ_init = { $value }
lab-seed = Seed
lab-compute-note = Computed on { $on }. Last new problem: { $problem } ms; last λ update (pooling and sums, on the host copy of the maps): { $lambda } ms.
lab-row-title = Query { $i }: weight on each key
lab-weight = weight
lab-differential-a1-a2 = differential (A1 − λ·A2)
lab-unusable = standard unusable at σ ≈ { $sigma }
lab-noise-x = noise amplitude σ
series-standard = standard
series-differential-at = differential, λ = { $lambda }
