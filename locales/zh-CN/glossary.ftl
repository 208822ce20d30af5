# 引导课的术语表：每个术语的名称和定义。

term-softmax-name = softmax
term-softmax-definition = 把一行分数变成全部为正、加起来等于 1 的权重：先对每个分数取指数，再除以它们的和。大的分数拿走大部分权重，但没有哪个分数恰好得到零。

term-logit-name = logit（未归一化的分数）
term-logit-definition = softmax 之前的分数。在注意力中，它是查询与键的点积，再除以头维度的平方根。

term-snr-name = SNR（信噪比）
term-snr-definition = 按本实验的定义：在所有查询上，信号键的平均权重除以噪声键的平均绝对权重。取绝对值，是因为负权重同样会把值混进来。对 softmax 注意力图而言，它就是真正匹配的键比一个普通的其他键多得到几倍的权重。

term-lambda-name = λ（lambda）
term-lambda-definition = 第二张图被减去多少：A1 − λ·A2。DIFF V1 每层学一个 λ，该层所有头共用，而且不做截断（可以是负数，也可以大于 1）；DIFF V2 用 sigmoid 为每个词元、每个头各算一个，所以取值在 0 到 1 之间。

term-lambda_init-name = λ_init
term-lambda_init-definition = DIFF V1 在给定深度（从 0 开始计）的层中 λ 的初始值：0.8 − 0.6·e^(−0.3·depth)。V1 还会把每个头的输出乘以常数 1 − λ_init。V2 没有 λ_init。

term-needle-name = 针（needle）
term-needle-definition = 藏在长上下文中、之后会被问到的一条事实。这里一根针是四个词元“KEY is VALUE .”，问题“? KEY →”要用 VALUE 来回答。

term-gqa-name = GQA（分组查询注意力）
term-gqa-definition = 多个查询头共用一个键头和一个值头，从而缩小 KV 缓存。DIFF V2 要求相减的一对头属于同一个键值组。

term-kv_cache-name = KV 缓存
term-kv_cache-definition = 生成文本时，模型保存所有先前词元的键和值，免得重新计算。缓存的大小，以及每生成一个新词元要读多少缓存，决定了解码的速度。

term-swiglu-name = SwiGLU
term-swiglu-definition = LLaMA 式模块中的前馈层：(swish(x·W_g) ⊙ x·W_1)·W_2，是两层感知机的门控变体。

term-rmsnorm-name = RMSNorm
term-rmsnorm-definition = 把向量除以其各分量平方的均值的平方根（再加一个很小的 ε），然后乘以一个学到的增益。DIFF V1 还对每个头的输出各做一次 RMSNorm。
