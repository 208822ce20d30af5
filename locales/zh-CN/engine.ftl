# 引擎说的话：数字在哪里算出来、λ 的说明、一行的说明、检查点的名称，以及模型文件或提示词哪里有问题。

why-chosen = 你选择了 CPU 核心
why-no-webgpu = 这个浏览器没有 WebGPU
why-asking = 浏览器尚未告知它有哪种 WebGPU 适配器
why-bits = { $bits } 比特的注意力 logit 只在 CPU 核心上计算
why-software = WebGPU 适配器（{ $adapter }）是软件渲染器，在这里比 CPU 核心还慢；如仍想使用，请选择 WebGPU
why-fell-back = WebGPU 失败了（{ $error }），所以改由 CPU 核心计算
why-this-page = 本页在 CPU 核心上运行模型
gpu-gone = GPU 已不可用
short-cpu = CPU 核心
short-cpu-worker = 后台 worker 中的 CPU 核心
computed-gpu = 在 WebGPU（{ $adapter }）上计算。
computed-cpu = 在 CPU 核心（WebAssembly）上计算：{ $why }。
computed-cpu-worker = 在 CPU 核心（WebAssembly，后台 worker 中，页面保持流畅）上计算：{ $why }。

card-invalid = 模型卡无效：{ $error }
card-empty = 模型卡中没有列出任何检查点
not-text = { $name } 不是文本文件
config-too-big = { $name }：{ $field } = { $value } 超出了本页能运行的范围（最多 { $max }）
one-word = 请从列表中选一个词
no-word-at = 位置 { $position } 上没有可以替换的词

row-net = 这一行在被问到的针上的净权重是 { $needle }，在上下文其余部分上是 { $rest }。
row-total = 它的权重加起来是 { $total }（等于 1 − λ，而不是 1）。
row-total-range = 它的权重加起来是 { $total }（等于 1 − λ，而不是 1），范围从 { $min } 到 { $max }：负权重会减去对应词元的值。

lambda-yours = 第 { $layer } 层的 λ = { $lambda }，由你设定：{ $what ->
        [zero] 所以 A1 − λ·A2 就是 A1：分支 1 的 softmax 注意力
        [negative] 是负数，所以 A1 − λ·A2 把第二张图加上去而不是减掉
       *[positive] 所有头共用这一个值
    }。点“回到学到的 λ”可恢复模型自己的值。
lambda-learnt-negative = 第 { $layer } 层的 λ = { $lambda }，是学到的：它是负数，所以 A1 − λ·A2 把第二张图加上去而不是减掉；这一层把权重撒到整个上下文上。
lambda-learnt = 第 { $layer } 层的 λ = { $lambda }，是学到的，所有头共用。
lambda-pinned = 第 { $layer } 层的 λ 被你固定为 { $lambda }，对每个词元、每个头都一样。
lambda-pinned-zero = 第 { $layer } 层的 λ 被你固定为 { $lambda }，对每个词元、每个头都一样：A1 − λ·A2 就是 A1，即分支 1 的 softmax 注意力。
lambda-scaled = 第 { $layer } 层在“→”处的 λ（每个头）：学到的逐词元 λ × { $factor }（你设的缩放）：{ $values }。
lambda-per-token = 第 { $layer } 层在“→”处的 λ（每个头；V2 为每个词元各算一个）：{ $values }。
lambda-none = 没有 λ：标准 softmax 注意力不减去任何东西。

checkpoint-step = { $percent }%（第 { $step } 步）
checkpoint-labelled = { $label }：第 { $step } 步（{ $percent }%）
ckpt-untrained = 未训练
ckpt-warm-up-half = 复制预热进行到一半
ckpt-after-warm-up = 复制预热之后
ckpt-retrieval-20 = 检索训练 20%
ckpt-trained = 训练完成

# 探索器链接的提示。
note-v1-lambda-key = v1_lambda（第 { $layer } 层）
note-v1-lambda-nan = v1_lambda（第 { $layer } 层）= { $raw } 不是数字；第 { $layer } 层保留学到的 λ
note-model = model={ $raw } 不是 { $all } 之一；显示 { $kind }
note-ctx = 没有 ctx={ $raw } 这个选项；使用 { $context }
note-view = view={ $raw } 不是 compare 或 single；显示 { $view }
note-on = on={ $raw } 不是 auto、gpu 或 cpu；使用 auto
note-prompt = 链接中的提示词未被使用（{ $error }）；显示一个生成的提示词
note-v1-norm = v1_norm={ $raw } 不是 on 或 off；保持 on
note-bits = bits={ $raw } 不是 32、8、6、4 之一；使用 32（f32）
note-queries = r={ $queries } 个查询需要同样多的针（n={ $needles }）；已设为 { $needles }
note-pick = { $kind } 中没有第 { $head } 个头；显示它最佳的头
note-layer-head = 这个模型中没有第 { $layer } 层 / 第 { $head } 个头；显示第 { $shown_layer } 层第 { $shown_head } 个头
note-row-prompt = 第 { $row } 行超出了这个提示词的 { $tokens } 个词元；显示“→”这一行

# 通过点击编辑提示词。
edit-no-needle = 没有第 { $k } 根针
edit-asked = 有一个查询在问“{ $words }”：请先删除那个查询
edit-asked-already = “{ $words }”已经被问到了
edit-no-query = 没有第 { $k } 个查询
edit-last-query = 提示词至少需要一个查询：请先添加一个，再删除这个

# 层的文件和它的 x。
file-no-layer-under = { $name } 中“{ $prefix }”下没有层（它包含的是：{ $all }）
file-no-layer = { $name } 中没有注意力层：没有名为 …q_proj.weight 的张量
file-projection-shape = { $name }：{ $tensor } 的形状是 { $shape }；投影权重应为 [out, in]
file-not-f32 = { $name }：{ $tensor } 无法按 f32 读取
file-heads-width = { $error }（由 { $heads } 个头和层宽 { $width } 推出）
file-x-shape = { $name }：`x` 的形状是 { $shape }；本页只运行一个序列：[T, E] 或 [1, T, E]
file-x-width = { $name }：`x` 宽 { $wide }，但这个层接受的宽度是 { $width }
file-x-empty = { $name }：`x` 没有词元
file-x-long = { $name }：`x` 有 { $tokens } 个词元；本页最多显示 { $max } 个

# 加载随附的模型，以及开发者用的 GPU 检查。
card-too-few = models/{ $kind }/card.json 只列出 { $count } 个检查点，不是 { $wanted } 个
gpu-forward-failed = WebGPU 前向计算失败：{ $error }
gpu-forward-compared = WebGPU 前向计算用时 { $ms } 毫秒：logit 的最大 |GPU − CPU| 为 { $logits }（容差 { $logits_tolerance }），第 { $layer } 层第 { $head } 个头的注意力图为 { $map }（{ $map_tolerance }）。
lab-verified = 最大 |GPU − CPU|：A1 { $a1 }，A2 { $a2 }，池化后的 A1 − λ·A2 { $diff }；信噪比相对差 { $snr }。注意力图的容差为 { $tolerance }。
lab-verified-other = 另一种行布局（{ $layout }）：A1 { $a1 }，A2 { $a2 }，池化后的 A1 − λ·A2 { $diff }。
lab-verified-other-failed = 另一种行布局（{ $layout }）无法运行：{ $error }。
lab-layout-workgroup = 每行一个工作组，vec4 读取
lab-layout-invocation = 每行一个调用
lab-runs-on-cpu = 这个问题在 CPU 上运行：{ $error }。

# 权重文件的问题（核心的错误信息，用屏幕上的语言说出来）。
weights-format = 文件格式有误：{ $detail }
weights-missing = 缺少张量 `{ $name }`（应有形状 { $expected }）
weights-shape = 张量 `{ $name }` 的形状是 { $found }，应为 { $expected }
weights-dtype = 张量 `{ $name }` 的数据类型是 { $dtype }；DiffLens 只读取 F32、F16 和 BF16
weights-non-finite = 张量 `{ $name }` 含有 NaN 或无穷大
weights-absent = 没有张量 `{ $name }`（文件中有：{ $held }）
weights-config = 模型配置：{ $detail }
