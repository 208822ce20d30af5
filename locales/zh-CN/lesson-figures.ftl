# 课程中的实时图表：它们的说明文字（由每张图自己的问题算出）、图表和表格。

change-rises = 上升
change-falls = 下降
change-same = 基本不变

facts-row = 在查询 { $row } 这一行中，最小的权重是 { $min }：很小，但不是零。{ $noise_keys } 个噪声键合起来占这一行权重的 { $noise }；{ $signal_keys } 个信号键占 { $signal }。
facts-context = 噪声 σ = { $sigma } 时，在 { $first_n } 个键中，噪声键拿走这个查询 { $first } 的权重；在 { $last_n } 个键中拿走 { $last }（期望值：{ $first_expected } 和 { $last_expected }）。每个键分到的份额缩小了，但键的数量增长得更快。
speckle-same = 两张图的斑点几乎一样
speckle-partly = 斑点有一部分相同
speckle-different = 两张图的斑点几乎没有共同之处
facts-branches = 共享 { $shared }% 的噪声时，A1 和 A2 在噪声键上的权重相关系数为 r = { $r }（完全相同时为 1）：{ $verdict }。
facts-subtract = λ = { $lambda } 时，A1 − λ·A2 的第一行加起来是 { $sum }（1 − λ = { $rest }）。平均每个查询在噪声键上的 |权重| 总和从 A1 的 { $noise_a1 } { $noise_change }到 { $noise_diff }，信噪比从 { $snr_a1 } { $snr_change }到 { $snr_diff }。
facts-choose = 这里噪声键占 A1 每一行的 { $noise }，最佳 λ 是 { $best }：信噪比 { $best_snr }，是标准注意力（{ $standard }）的 { $gain } 倍。在你选的 λ = { $lambda } 处，信噪比是 { $snr }；在滑块最右端 λ = { $end } 处，是 { $end_snr }。
facts-failure = 共享 { $shared }% 的噪声时，最佳 λ（{ $best }）把信噪比从 { $from } 提高到 { $to }：{ $verdict ->
        [barely] 只有 { $gain } 倍，相减几乎没有帮助
        [less] { $gain } 倍，相减的帮助变小了
       *[still] { $gain } 倍，相减仍然有帮助
    }。像前几步那样共享 { $reference }% 时，最佳 λ 带来 { $reference_gain } 倍。
cost-baseline = 基线
facts-cost = 对于隐藏维度 { $hidden }、{ $heads } 个大小为 { $head_dim } 的头、{ $layers } 层的模型：DIFF V1 的参数比基线多 { $v1_more }%，每解码一个词元读取的 KV 缓存是基线的 { $v1_read } 倍；DIFF V2 的参数多 { $v2_more }%，读取量是 { $v2_read } 倍。
facts-prediction-right = 回答“{ $predicted }”（{ $percent }），正确：答案是“{ $answer }”
facts-prediction-wrong = 回答“{ $predicted }”（{ $percent }），错误：答案是“{ $answer }”
facts-negative-lambda = 我们的 DIFF V1 在第一层学到的 λ = { $lambda }。负的 λ 会把第二张图加上去而不是减掉，所以这一层把权重撒到整个上下文上，而不是抵消噪声：这与论文描述的正好相反。我们照实展示。

# 第 1 步：一个查询的一行。
fig-row-title = 查询 { $row }：在 { $n } 个键上各自的权重
fig-row-x = 键 j
fig-row-y = 权重（对数）
fig-row-series = softmax 权重
fig-row-label = 一个查询在所有键上的 softmax 权重，对数刻度；红点是真正匹配的键
# 第 2 步。
fig-context-label = 一个查询放在噪声键上的权重，随键的个数的变化
# 第 3、4 步：注意力图。
fig-tooltip = 查询 { $i }，键 { $j }
fig-diff-explain = 红色为正，蓝色为负，白色为零：噪声共享的地方，它被抵消了。
fig-a2-explain = 第二张图：没有信号，只有噪声，其中一部分和 A1 的噪声相同。
fig-a1-explain = 标准注意力：带刻度的列是匹配的键。
# 第 5、6 步。
fig-lambda-label = A1 − λ·A2 的信噪比随 λ 的变化，对数刻度，标出了最佳 λ 和当前 λ
lambda-init-caption = DIFF V1 各层 λ 的初始值：λ_init = 0.8 − 0.6·e^(−0.3·depth)
th-depth = 深度
# 第 7 步：代价表。
cost-kv-heads = 键头和值头
cost-mha = 32 个 KV 头（每个查询头一个）
cost-gqa = 8 个 KV 头（GQA）
th-model = 模型
th-attention-params = 每层注意力参数
th-whole-model = 整个模型
th-vs-baseline = 相对基线
th-kv-cache = 每词元 KV 缓存
th-kv-read = 每解码一个词元读取的 KV
# 第 8、9 步：训练好的模型。
lesson-three-models = 三个训练好的模型
lesson-computed = 已在你的浏览器中用 CPU 核心算完。
lesson-it-answers = 它{ $what }。
lesson-best-head = 最后一层，第 { $head } 个头：“→”这一行在被问到的针上的净权重是 { $answer }，在上下文其余部分上是 { $noise }。
lesson-prompt = 提示词：{ $prompt }
lesson-model-answers = { $model }{ $what }。
lesson-models-facts = 在这个提示词上，三个模型中有 { $right } 个答对了。{ $each }
lesson-text-head = 第 { $layer } 层（最后一层）第 1 个头，横纵轴都是字符；最后一行加了边框。
lesson-text-facts = 在这句台词上，最后一个字符那一行（对最后一层的所有头取平均）留在 { $near } 个字符以外更远字符上的权重：基线为 { $base }，DIFF V1 为 { $v1 }，DIFF V2 为 { $v2 }。三个模型在这句台词上每个字符的平均意外程度分别为 { $base_loss }、{ $v1_loss } 和 { $v2_loss } 奈特。
# 两个句子之间。
sentence-gap = {""}
right-percent = 正确（{ $percent }）
wrong-percent = 错误（{ $percent }）
paper-transformer = Transformer（论文，3B）
paper-diff = DIFF（论文，3B）
ours-tiny = { $model }（我们的，微型）
paper-caption = 放在答案上和上下文其余部分上的注意力（论文表 3：五个深度的平均；我们的：“→”这一行，每层每个头，这个提示词），以及注意力 logit 的最大值和中位数（表 5）。
th-on-answer = 在答案上
th-on-context = 在上下文上
th-largest-logit = 最大 logit
th-median-logit = logit 中位数
th-four-bit = 这个提示词，4 比特 logit
paper-four-bit-explain = 最后一列在这个提示词上运行我们的模型，每个注意力 logit 都以 4 比特存储（absmax，每一层都如此）；探索器中的“注意力 logit”控件可对任意提示词做同样的事，它的“运行 100 个提示词”会统计准确率。
paper-model-line = { $model }：答案上 { $answer }，上下文上 { $noise }
paper-facts = 在这个提示词上，对所有头取平均：{ $line }。

# 课程与实验室共用的图表。
chart-snr-lambda = 信噪比随 λ 的变化
chart-snr-log = 信噪比（对数）
chart-best-lambda = 最佳 λ = { $lambda }
chart-context-title = 一个查询的噪声权重随上下文长度的变化
chart-context-x = 上下文中的键数（对数）
chart-context-y = 噪声上的权重
series-standard-sampled = 标准注意力（抽样）
series-standard-expected = 标准注意力（期望）
series-differential = 差分注意力
contrast-linear = 线性
contrast-sqrt = 平方根
contrast-log = 对数（4 个数量级）
colour-scale = 色标：{ $contrast }
colour-scale-diverging = 色标：{ $contrast }，蓝色小于 0，红色大于 0

# 每张热力图。
map-keys = 键 j →（0 … { $last }）
map-keys-ticks = 键 j →（0 … { $last }）；刻度标出{ $ticks }
map-signal-keys = 信号键
map-queries = 查询 i ↓（0 … { $last }）
map-queries-marked = 查询 i ↓（0 … { $last }）；加框的第 { $row } 行是“→”，它预测答案
map-aria = { $title }：{ $n } 个查询 × { $n } 个键的热力图。方向键移动光标并读出每个值。
map-aria-pick = { $title }：{ $n } 个查询 × { $n } 个键的热力图。方向键移动光标，回车键画出这一行。
map-download-group = 下载这张图
download = 下载
map-asked-needle = 被问到的针“{ $words }”
figure-keys = 键 j →
figure-queries = 查询 i ↓
chart-download-group = 下载：{ $label }
legend = 图例

## 用文字和表格说出图中的内容（issue 45）
map-sum-favourite = { $all } 个查询中有 { $rows } 个把最大的权重放在{ $key }上。
map-sum-favourite-pooled = 图中 { $all } 行里有 { $rows } 行把最大的权重放在{ $key }上。
map-sum-none = 没有查询给任何键正的权重。
map-sum-marked = { $all } 个查询中有 { $rows } 个最关注{ $what }；全部权重的 { $share } 落在那里，{ $rest } 落在别处。
map-sum-marked-magnitude = { $all } 个查询中有 { $rows } 个最关注{ $what }；权重绝对值总和的 { $share } 在那里，{ $rest } 在别处。
map-sum-marked-pooled = 图中 { $all } 行里有 { $rows } 行最关注{ $what }。
map-sum-negative = 权重的绝对值中有 { $share } 是负的。
map-sum-row = 加框的一行（查询 { $query }）把最大的权重（{ $value }）放在{ $key }上。
map-sum-row-share = 这一行的权重有 { $share } 落在{ $what }上。
map-sum-pooled = （读自由 { $n } × { $n } 池化为 { $r } × { $r } 的图。）
map-key-one = 键 { $j }
map-key-label = 键 { $j }（“{ $label }”）
map-keys-range = 键 { $from }–{ $to }
map-cell-read = 查询 { $i }，键 { $j }：{ $value }
map-cell-read-pooled = 查询 { $i }，键 { $j }：{ $value }，是图中这一块里绝对值最大的
chart-sum-curve = { $name }{ $trend }：{ $xname } = { $x0 } 时为 { $y0 }，{ $x1 } 时为 { $y1 }；最低 { $ymin }（在 { $xmin }），最高 { $ymax }（在 { $xmax }）。
chart-sum-more = 另有 { $n } 条曲线见表格。
chart-sum-markers = 标记：{ $list }。
chart-trend-rises = 上升
chart-trend-falls = 下降
chart-trend-peaks = 先升后降
chart-trend-dips = 先降后升
chart-trend-flat = 大致持平
show-as-table = 以表格显示
table-map-caption = { $title }：{ $n } 个查询（行）× { $n } 个键（列）。
table-map-pooled = { $title }：由 { $n } × { $n } 池化为 { $t } × { $t }；每格是它那一块查询和键里绝对值最大的值，与图相同。
table-corner = 查询 ↓ 键 →
table-chart-caption = { $label }：每个 { $x } 值一行，每条曲线一列。
map-sum-versus-baseline = 基线模型加框的一行把 { $share } 的权重放在{ $what }上。
chart-aria = { $label }。方向键逐点读出数值；Home 和 End 读第一个和最后一个点。
chart-point = { $xname } = { $x }：{ $values }
