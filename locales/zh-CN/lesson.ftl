# 引导课（#/learn）：每一步的标题和段落。
# [[key]] 或 [[key|显示的文字]] 链接到术语表（glossary.ftl）中的术语。

step-softmax-title = Softmax 永远给不出恰好为零的权重
step-softmax-p1 = 注意力决定每个先前的词元（键，key）对正在计算的词元（查询，query）有多重要。它给每个键打一个分，再由 [[softmax]] 把这些分数（[[logit|logit]]）变成权重：对每个分数取指数，再除以总和，所以一行权重加起来等于 1。
step-softmax-p2 = 指数永远不会等于零。每个键，无论多不相关，都会留下一点权重。图中画的是一个查询：少数几个键真正与它匹配（红点），其余的键得到的都是随机分数。拖动噪声 σ，看红点下方的“噪声底”如何抬高。

step-length-title = 噪声底随长度累积
step-length-p1 = 每个噪声键几乎分不到什么，可长上下文里的噪声键多得惊人。每个键 0.0001% 的权重，乘以 128 000 个键，就是整行的 12.8%。（常被引用的 0.001% 会得出 128%：这不可能，因为一行 softmax 权重加起来等于 1。）
step-length-p2 = 图中保持同一种查询（同样的信号、同样的噪声），把上下文一次次加倍。信号键不会变多；噪声键会，它们分走的权重越来越多。

step-two-maps-title = 第二张图，看见同样的噪声
step-two-maps-p1 = 差分注意力从同一组词元算出两张注意力图 A1 和 A2，每张都是普通的 softmax 注意力图，各有自己的查询（DIFF V1 还让两张图各有自己的键；DIFF V2 中两张图共用键和值）。
step-two-maps-p2 = 在这个实验里，A2 只看到噪声、看不到信号，而它的噪声有一部分和 A1 的相同：“共享噪声”滑块决定相同的比例。训练好的模型会自己学出这种分工，这里由你来设定。噪声大多共享时，A1 和 A2 的斑点看起来很像；把滑块往下拉，两者就各走各的路。

step-subtract-title = 相减：A1 − λ·A2
step-subtract-p1 = 现在用 A1 减去 A2 的 [[lambda|λ]] 倍。两张图上相同的噪声相互抵消，图变成白色；只有 A1 才有的信号列仍然是红色。
step-subtract-p2 = A1 和 A2 的每一行加起来都等于 1，所以差值的每一行加起来等于 1 − λ。权重现在可以是负的（蓝色）：负权重会减去该词元的值，而不是加上它。λ = 0 时，差值就是 A1 本身。

step-lambda-title = 如何选择 λ
step-lambda-p1 = 应该减去多少？图中扫过一系列 λ，画出 A1 − λ·A2 的[[snr|信噪比]]。λ 小一点能抵消共享的噪声；λ 太大，减去的噪声比 A1 原有的还多，噪声会以相反的符号回来（就是上一步图中的蓝色）。
step-lambda-p2 = 训练好的模型会学出自己的 λ。DIFF V1 每层学一个，从 [[lambda_init|λ_init]] = 0.8 − 0.6·e^(−0.3·depth)（depth 为层的深度，从 0 开始计）出发：浅层的初值小，深层接近 0.8。DIFF V2 为每个词元、每个头各算一个 λ，取值在 0 到 1 之间。

step-failure-title = 失效的情形：噪声并不共享
step-failure-p1 = 相减只能抵消两张图共有的部分。把“共享噪声”往下拉：A2 的噪声变得与 A1 的无关，减去它反而带来新的噪声，而不是消除原有的噪声。这时即使用最好的 λ 也帮不了多少。
step-failure-p2 = 正因如此，两张图要在同一层、由同一个输入算出，并且一起训练：模型学会把相同的噪声放进两张图里。

step-cost-title = 第二张图的代价
step-cost-p1 = DIFF V1 把头数减半，以保持与基线相同的参数量：每个差分头有两对查询–键，值的宽度加倍。它的 [[kv_cache|KV 缓存]] 存储量与基线相同，但它的计算核对每张图都要读一遍值缓存。
step-cost-p2 = DIFF V2 则把查询头加倍（查询投影的参数更多），键头和值头不变，缓存只读一遍：解码成本与基线相同，在键值分组（[[gqa|GQA]]）时也是如此。两者都保留了模块的其余部分：[[rmsnorm|RMSNorm]] 和 [[swiglu|SwiGLU]] 前馈层。

step-models-title = 训练好的模型：谁能找到“针”？
step-models-p1 = 我们在同一个任务上训练了三个很小的模型：一段由填充词构成的上下文里藏着几根[[needle|针]]（“KEY is VALUE .”），结尾的问题（“? KEY →”）问其中一个键对应的值。一个是基线 Transformer，一个是 DIFF V1，一个是 DIFF V2。
step-models-p2 = 同一个提示词依次通过三个模型，就在你的浏览器里运行。每张图取自模型的最后一层、在被问到的针上权重最大的那个头，画的是与值相乘的那张图（DIFF 模型是 A1 − λ·A2）。

step-paper-title = 论文测到了什么，我们的玩具模型又显示了什么
step-paper-p1 = 论文在真实文本上训练了三十亿参数的模型。在“大海捞针”式的检索中，DIFF Transformer 放在答案上的注意力远多于基线，放在上下文上的远少于基线；它最大的注意力 logit 也小得多，所以用很少的比特存储也不怕。
step-paper-p2 = 我们的模型很小，只在一个玩具任务上训练了几分钟，别指望得到相同的数字。表格把两者并排列出，我们的数字是在上一步的提示词上算出来的。我们的模型与论文不一致的地方，我们照实展示。
step-real-text-title = 你自己的文字：三个语言模型并排
step-real-text-p1 = 到目前为止，每个模型读的都是编造的词表。这三个模型读的是字符：基线 Transformer、DIFF V1 和 DIFF V2，以相同方式在莎士比亚剧本上训练，这里在《麦克白》的一句台词上运行——训练时它们从未见过这部剧。
step-real-text-p2 = 在真实文本上，一个字符的大部分权重落在它前面紧挨着的几个字符上，其余的权重稀薄地摊在更远的所有字符上：这就是第一步的噪声底，如今出现在文字上。在这个规模下，DIFF 并没有明显降低模型在训练时留出的剧本上的损失，而且一个经典的计数模型（Kneser–Ney n 元语法）比三个模型预测得都好：这么小、训练这么短的模型，离这种架构的能力还很远（文本页面给出每个训练种子的数字及其区间）。打开文本页面，输入你自己的句子吧。

# 课程页面中步骤以外的部分。
lesson-steps = 课程的步骤
lesson-step-count = 第 { $k } 步，共 { $n } 步
lesson-previous = ← 上一步
lesson-next = 下一步 →
lesson-keys = 按键：← 和 →（或 Page Up 和 Page Down）在步骤之间切换。
lesson-open-lab = 在实验室中打开
lesson-open-arch = 打开架构计算器
lesson-open-explorer = 打开模型探索器
lesson-open-text = 打开文本页面
lesson-open-train = 自己来训练
lesson-glossary = 术语表
lesson-glossary-link = （术语表）
lesson-sources = 参考资料
source-paper = Ye 等，《Differential Transformer》，ICLR 2025（arXiv 2410.05258）
source-v2 = DIFF Transformer V2 技术说明，2026 年 1 月
source-code = 官方代码：microsoft/unilm，Diff-Transformer
paper-figure8 = 把注意力 logit 量化到 4 比特时，DIFF 的准确率与 6 比特的 Transformer 相当，比 4 比特的 Transformer 高约 25%。
term-colon = ：
