# 模型探索器，以及课程借用的部分。

kind-baseline = 基线 Transformer
kind-diff-v1 = DIFF Transformer V1
kind-diff-v2 = DIFF Transformer V2
map-softmax = A（softmax）
cell-query-key = 查询 { $i }“{ $query }”→ 键 { $j }“{ $key }”
status-loading = 正在加载{ $what }…
status-computing = 正在用模型计算这个提示…
status-ready = 已算完。每个模型的预测下方注明了计算的位置：WebGPU 或 CPU 核心。
status-failed = 无法加载模型：{ $error }
status-run-failed = 无法运行这个提示词：{ $error }
try-again = 重试

# 你自己的提示词。
prompt-explain = 词与词之间用空格隔开。一根针是“KEY is VALUE .”，可以放在第一个“?”之前的任何位置；提示词以一个或多个查询“? KEY →”结尾（“→”之后的值让下一个查询接着问）。每个模型在每个“→”处作答。模型只认识这些词：
prompt-label = 你的提示词
prompt-use = 使用这个提示词
prompt-from-screen = 从屏幕上的提示词重新开始
prompt-generated = 回到自动生成的提示词
needle-group = 这根针
needle-a-depth = 选一个深度…
needle-remove = 删除这根针
needle-ask = 问这根针
query-remove = 删除这个查询
token-bos = 位置 0：每个提示词的开头
token-editor = 替换提示词中的一个词
token-replace = 替换
cancel = 取消
prompt-click-help = 点击一个词可以替换它（改针的值会改变答案，针的键仍须与某个查询对应），也可以移动或删除它所在的针，或者问这根针。
needle-add-at = 添加一根针，位置
needle-add = 添加一根针
unknown-error = 未知错误
fetch-failed = 无法获取 { $url }：连接失败（{ $error }）。请检查网络后重试。
fetch-not-response = { $url }：不是有效的响应
fetch-http = { $url }：服务器返回 HTTP { $status }
fetch-broke-off = { $url }：下载中断（{ $error }）
fetch-timeout = { $url }：服务器在 { $seconds } 秒内没有响应。
page-closed = 页面已关闭
vocab-markers = 标记
vocab-keys = 键
vocab-values = 值
vocab-filler = 填充词
prompt-in-use = 正在使用你自己的提示词：编辑它
prompt-write = 写你自己的提示词
depth-start = 0%（开头）
depth-end = 100%（结尾）
needle-move = 把“{ $words }”（现在在 { $now }% 深处）移到
token-position = 位置 { $i }：{ $word }；点击替换
token-replace-with = 把“{ $word }”（位置 { $i }）替换为

# 对比视图。
compare-explain = 每一列运行同一个提示词。大图是与值相乘的那张：DIFF 模型是 A1 − λ·A2，基线是 softmax 注意力图 A；红色是加，蓝色是减，三列共用一个色标（小的 A1、A2 图也是如此）。点击某个模型网格中的缩略图可以显示另一个头；默认情况下，每一列显示所选层中在被问到的针上净权重最大的那个头。
grid-explain = 每一个头（每个缩略图有各自的色标）；数字是它在被问到的针上的净权重。
grid-reset = 回到最佳的头
loading-checkpoint-three = 三个模型的第 { $k } 个检查点
and = 和
loading-models = 模型
checkpoint-of-five = 第 { $k } 个检查点（共 5 个）
compare-nothing-ran = 上次更新：每一列都已算好，没有重新计算。
compare-timing = 上次更新：{ $n } 次前向计算（保留所有注意力图），在{ $on }上用时 { $ms } 毫秒。
which-auto = 第 { $layer } 层，第 { $head } 个头：在被问到的针上净权重最大的头
which-picked = 第 { $layer } 层，第 { $head } 个头：在网格中选定
net-sentence = 这个头的“→”这一行在被问到的针上的净权重是 { $answer }，在上下文其余部分上是 { $noise }。
prediction-right = 查询 { $k }：预测 { $predicted }（{ $percent }%），答案是 { $answer }——正确
prediction-wrong = 查询 { $k }：预测 { $predicted }（{ $percent }%），答案是 { $answer }——错误
grid-layer = 第 { $layer } 层
grid-heads-of = { $model } 的各个头
thumb = 第 { $layer } 层，第 { $head } 个头：在被问到的针上的净权重 { $net }
thumb-best = 第 { $layer } 层，第 { $head } 个头：在被问到的针上的净权重 { $net }，本层最大

# 论文的证据，实时计算（表 2、3、5）。
evidence-prompt = 论文的证据，在这个提示词上
evidence-fresh = 论文的证据，在一批新提示词上
all-layers = 所有层
net-table-explain = 表 3 的实时版：“→”这一行把权重放在哪里。在被问到的针上和上下文其余部分上的净权重（取自与 V 相乘的那张图：A1 − λ·A2，基线则是 A），对每层的各个头取平均。论文报告 DIFF 在答案上的权重更多、在噪声上的更少。这些数字来自上面每一列的运行结果（每一列都注明了计算位置）。
th-layer = 层
th-needle = 针
th-rest = 其余
magnitude-explain = 表 5 的实时版：这个提示词上，缩放后的注意力 logit（每个头、每个分支、查询能看到的位置）以及每层之后的隐藏状态，其幅值的最大值和中位数。论文报告 DIFF 的离群值更小，所以它的 logit 经得起低比特量化。数据来自上面每一列的运行结果，计算位置见各列说明。
th-logits-top1 = logit 最大值
th-top10 = 前 10
th-median = 中位数
th-hidden-top1 = 隐藏状态最大值
accuracy-title = 表 2 的实时版：检索准确率
sweep-title = 表 3 的实时版：深度扫描
sweep-run = 扫描各个深度
sweep-answer-label = 每个模型在被问到的针上的净权重随针的深度的变化
sweep-empty = 点击“扫描各个深度”开始测量。
sweep-noise-label = 每个模型在上下文噪声上的净权重随针的深度的变化
negative-learnt = { $model } 在第 { $layer } 层学到 λ = −{ $lambda }
negative-yours = { $model } 在第 { $layer } 层用的是你设的 λ = −{ $lambda }
negative-list = { $list }。
negative-explain = 负的 λ 把 A1 − λ·A2 变成 A1 + |λ|·A2：这一层把第二张图加上去而不是减掉，所以它在上下文上的权重是增加而不是抵消。
negative-learnt-why = 我们的小模型是从正的初值学到这个结果的：每个 λ 都从 λ_init 开始，在 0.2 到 0.8 之间。
settings-f32 = f32 注意力 logit
settings-bits = { $bits } 比特的注意力 logit
settings-your-lambda = ，{ $models } 使用你设的 λ
settings = N = { $needles } 根针，R = { $queries } 个查询，上下文 { $context }（训练长度的 { $times } 倍），{ $precision }{ $lambda }
no-worker-answered = 没有后台线程响应
worker-stopped = 一个后台线程停止了（{ $why }）；它的提示词改在页面自己的线程上运行。
accuracy-explain = 用上面的设置生成 { $prompts } 个新提示词（{ $settings }）；每个模型在每个“→”处回答每个查询。把上下文长度改成 2 倍或 4 倍可以测试长度泛化，把注意力 logit 改成 4 比特则对应论文的图 8。它们在 { $workers } 个后台线程中用 CPU 核心（WebAssembly）计算，每个线程有自己的一份模型，所以页面始终保持响应。
accuracy-run = 运行 { $prompts } 个提示词
run-stopped = 已停止：{ $error }
run-progress = { $done } / { $total } 个提示词…
run-cancelled = 在 { $done } / { $total } 个提示词后取消。
run-done = 完成：{ $total } 个提示词。
bar-value = { $percent }%（{ $asked } 个查询中答对 { $right } 个）
bars-for = { $settings }：
sweep-answer-title = 在被问到的针上的净权重
sweep-noise-title = 在上下文噪声上的净权重
sweep-x = 被问到的针的深度（%）
sweep-y = 净权重
sweep-explain = 在被问到的针的五个深度（上下文的 0、25、50、75、100% 处）各生成 { $prompts } 个新提示词，每个一个查询；每个模型在“→”处的净权重，对头、层和提示词取平均，与 README 中的表 3 相同，在 CPU 核心（WebAssembly）上由页面的后台线程计算，每个任务几个提示词。设置：{ $settings }。

# 探索器页面和控件。
model-intro = 三个在本仓库中训练的微型模型，任务是在填充词中找到某个城市对应的数字：一个基线 Transformer、一个 DIFF V1 和一个 DIFF V2，参数量相当。把它们并排放在同一个提示词上，或者选一个模型拖动它的训练进度，看看必须作答的那个位置在关注哪里。
model-view = 视图
view-compare = 并排对比
view-single = 单个模型
model-model = 模型
model-context = 上下文长度
model-layer = 层
model-head = 头
model-bits = 注意力 logit
model-new-prompt = 换一个提示词
compute-on = 模型在哪里运行
mknob-ckpt = 训练进度
mknob-needles = 上下文中的针数
mknob-queries = 提问的个数
mknob-depth = 被问到的针的深度
mknob-layer = 层
mknob-head = 头
mknob-seed = 随机种子
model-yours = 你的模型（{ $label }）
depth-random = 随机
context-training = 64（训练长度）
context-times = { $context }（训练长度的 { $times } 倍）
bits-f32 = f32（与训练时相同）
bits-absmax = { $bits } 比特 absmax
model-own-prompt-note = 正在使用你自己的提示词；针、查询、深度和长度这些控件会生成提示词（调整其中任何一个，或点“换一个提示词”，都会回到生成的提示词）。
model-prompt-seed = 提示词种子
on-auto = 自动（有硬件 GPU 时用 WebGPU）
on-gpu = WebGPU
on-cpu = CPU 核心（WebAssembly）
on-gpu-missing = WebGPU（此浏览器不可用）

# 单个模型。
single-a1-explain = 这个头的第一张 softmax 注意力图（基线只有这一张）。刻度标出被问到的针。点击一行（或在该行上按回车）可在下方画出这一行。
single-a2-explain = 第二张 softmax 注意力图：这个头要减去的部分。
single-diff-explain = 与值相乘的那张图。红色是加，蓝色是减，白色是忽略。
single-row-label = 一个查询行在提示词上的注意力
single-row-reset = 回到“→”这一行
single-no-gpu = 这个浏览器走的是 CPU 路径，这里没有 GPU 可以比较。
single-gpu-check = 在 WebGPU 上运行并比较
loading-checkpoint = { $model } 的第 { $k } 个检查点
loading-model = 模型
single-dev-explain = 这些模型在 WebGPU 上的前向计算，在项目的测试中与这里的 CPU 结果做过比对（logit 误差在 { $logits } 以内，注意力图在 { $maps } 以内）。
single-row-title = 第 { $row } 行（“{ $token }”）在提示词上的分布，第 { $layer } 层第 { $head } 个头
single-key-position = 键的位置
single-row-picked = 第 { $row } 行（“{ $token }”），在图上选定。
single-row-answer = “→”这一行（位置 { $row }），它是必须给出答案的词元。
single-row-dots = 红点标出被问到的针“KEY is VALUE .”。
single-running-gpu = 正在 WebGPU 上运行…
single-lambda = 第 { $layer } 层的 λ：{ $lambda }
single-lambda-per-token = 第 { $layer } 层在“→”处的 λ（每个头）：{ $values }
single-no-lambda = 没有 λ：基线不减去任何东西
single-prediction-right = 查询 { $k }：预测 { $predicted }（{ $percent }%），答案是 { $answer }（{ $answer_percent }%）——正确
single-prediction-wrong = 查询 { $k }：预测 { $predicted }（{ $percent }%），答案是 { $answer }（{ $answer_percent }%）——错误

# 自己设定 λ。
v1-explain = DIFF V1 每层学一个 λ。拖动它，观察注意力图和预测的变化；λ = 0 时，每个头就是它第一张图的 softmax 注意力（再经过归一化并乘以 1 − λ_init）。
v1-zero = 每一层都设 λ = 0
v2-explain = DIFF V2 根据词元本身为每个词元、每个头算出一个 λ。可以把它们统一缩放，或者全部换成同一个值；λ = 0 时，每个头就是它第一张图的 softmax 注意力。
lambda-panel-changed = 自己设定 λ（已改动：这一列用的是你的 λ）
lambda-panel = 自己设定 λ
v1-learnt-was = （学到的值 { $lambda }）
v1-learnt = （学到的值）
v1-layer = 第 { $layer } 层的 λ
v1-norm = 逐头归一化（关闭：论文中去掉 GroupNorm 的消融实验）
back-to-learnt = 回到学到的 λ
v2-not-in-use = （未使用）
v2-now-learnt = 当前：学到的 λ，即对每个词元、每个头计算 sigmoid(x·W_λ)。
v2-now-scale = 当前：每个学到的 λ 都乘以 { $factor }。
v2-now-pin = 当前：无论是哪个词元，每个 λ 都固定为 { $lambda }。
v2-scale = 把每个 λ 乘以
v2-pin = 把每个 λ 固定为

# 单个注意力层，以及你自己的模型。
layer-open = 打开一个注意力层
layer-explain = 命令行工具格式的单个层（一个使用官方参数名 q_proj.weight、k_proj.weight…的 safetensors 文件），或者整模型检查点中的某一层。文件本身不说明它是哪种层、有几个头：请在这里指定，就像在命令行上一样。这个层在随机的 x 上运行，或者在来自 safetensors 文件的 x 上运行（形状为 [T, E] 或 [1, T, E]）；因果掩码，使用 RoPE。不会上传任何东西。
layer-file = 层的文件
layer-kind = 类型
layer-heads = 头数（DIFF 为差分头的个数）
layer-depth = 深度（λ_init = 0.8 − 0.6·e^(−0.3·depth)）
layer-tokens = 随机 x：词元数
layer-x = 或者从文件读取 x
layer-choose = 请选择一个层的文件。
layer-several = 文件中有多个层；显示
layer-a1-explain = 这个头的第一张 softmax 注意力图（softmax 层只有这一张）。
layer-diff-explain = 与值相乘的那张图。
layer-x-from = 来自 { $name } 的 x
layer-random-x = { $tokens } 个词元的随机 x（种子 { $seed }）
layer-ignored = 文件中还有 { $n } 个这一层用不到的张量。
layer-opened = 已打开 { $file } 中的 { $prefix }：{ $kind }，{ $heads } 个头，宽度 { $width }，输入为{ $from }。{ $ignored }
layer-cell = 查询 { $i } → 键 { $j }
layer-lambda = λ = { $lambda }：这一层所有头共用一个（由文件中的 λ 向量和 λ_init 算出）。
layer-lambda-per-token = 每个词元、每个头各有一个 λ（DIFF V2）：从 { $from } 到 { $to }。
layer-no-lambda = 没有 λ：softmax 层每个头只有一张图。
own-title = 探索你自己的模型
own-explain = README 中整模型格式的模型：一个 safetensors 文件和它的 JSON 配置，在本任务的词表（76 个词元）上训练。文件只在你的浏览器里读取，不会上传。你的模型不在页面的链接里：链接打开的是随附的模型。
own-choose = 选择这两个文件，或者把它们拖到这里：
own-back = 回到随附的模型
own-unreadable = 无法读取 { $name }
own-two-files = 请选择两个文件：一个 .json 配置和一个 .safetensors 文件（收到的是：{ $got }）
own-none = 无
own-reading = 正在读取文件…
own-loaded = 已加载 { $label }：{ $kind }，{ $layers } 层。
model-open-text = 这些模型说的是人造的“针”语言。想在你自己输入的真实文字上看同样三种模型，请打开“你自己的文字”→

## 由播报区读出（issue 45）
said-prediction-right = 查询 { $k } 预测 { $predicted }（{ $percent }%），正确
said-prediction-wrong = 查询 { $k } 预测 { $predicted }（{ $percent }%），错误
said-model-predictions = { $model }：{ $predictions }。
