# 架构计算器（#/arch）和性能测试页（#/bench）。

arch-explain = DIFF 注意力在参数和内存上的代价。配置描述的是基线；DIFF V1 保持各处宽度不变（头数减半，每个头有两个子头），只增加 λ 向量和一个归一化增益；DIFF V2 把查询头加倍，但保持 KV 头不变，所以它的 KV 缓存与基线相同。
arch-range = 每个数都在 1 到 1 000 000 之间。查询头数必须是偶数（DIFF V1 把它们两两配对）；KV 头数必须是偶数，并且能整除查询头数。
arch-7b = 7B 配置（32 个头）
arch-7b-gqa = 7B 加 GQA（8 个 KV 头）
th-kv-bytes-read = 每解码一个词元读取的 KV 字节数
arch-caches = 缓存为 fp16（每个值 2 字节），包括所有层。V1 对每个 softmax 分支各做一次注意力，作用在宽度为 2d 的值上，所以解码时要读两遍 V 缓存；V2 只读一遍。V2 多出的查询参数可以从前馈层中扣除，使总参数量不变，V2 的作者正是这样做的。
arch-lambda-init = 各层深度的 λ_init
arch-lambda-init-explain = V1 的 λ 初值为 0.8 − 0.6·e^(−0.3·depth)：浅层小，深层接近 0.8。
field-hidden = 隐藏维度
field-heads = 查询头数（基线）
field-head_dim = 头维度 d
field-kv_heads = KV 头数（GQA）
field-layers = 层数
field-ffn = SwiGLU 隐藏维度
field-vocab = 词表大小
note-heads-even = heads={ $heads } 必须是偶数（DIFF V1 把查询头两两配对）；已设为 { $even }
note-kv-heads = kv_heads={ $kv_heads } 必须是偶数并能整除 heads（{ $heads }）；已设为 { $fixed }
bench-explain = 在 README 性能表中的各个形状上测试 CPU 路径（WebAssembly）。需要几秒钟。
bench-running = 正在运行…
