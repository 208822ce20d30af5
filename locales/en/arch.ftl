# The architecture calculator (#/arch) and the benchmarks page (#/bench).

arch-explain = What DIFF attention costs in parameters and memory. The config describes the baseline; DIFF V1 keeps its widths (half as many heads, each with two sub-heads) and adds only λ vectors and a norm gain; DIFF V2 doubles the query heads but keeps the KV heads, so its KV cache is the baseline's.
arch-range = Every number from 1 to 1 000 000. Query heads must be even (DIFF V1 splits them in pairs); KV heads must be even and divide the query heads.
arch-7b = 7B config (32 heads)
arch-7b-gqa = 7B with GQA (8 KV heads)
th-kv-bytes-read = KV bytes read / decoded token
arch-caches = Caches are fp16 (2 bytes per value), all layers. V1 runs one attention per softmax branch over its 2d-wide values, so decoding reads the V cache twice; V2 reads it once. V2's extra query parameters can be taken from the feed-forward to keep the total equal, as its authors do.
arch-lambda-init = λ_init by layer depth
arch-lambda-init-explain = V1 starts λ at 0.8 − 0.6·e^(−0.3·depth): small in early layers, near 0.8 deep down.
field-hidden = Hidden size
field-heads = Query heads (baseline)
field-head_dim = Head size d
field-kv_heads = KV heads (GQA)
field-layers = Layers
field-ffn = SwiGLU hidden size
field-vocab = Vocabulary
note-heads-even = heads={ $heads } must be even (DIFF V1 splits the query heads in pairs); set to { $even }
note-kv-heads = kv_heads={ $kv_heads } must be even and divide heads ({ $heads }); set to { $fixed }
bench-explain = The CPU path (WebAssembly) on the shapes of the README's performance table. Takes a few seconds.
bench-running = running…
