# 训练页：在浏览器里训练三种模型，带多个随机种子。
page-train = 自己来训练
train-intro = 在这里、在你的浏览器里训练基线 Transformer、DIFF V1 和 DIFF V2：同样的数据，同样的批次，同样的顺序，看着它们学习。每个种子让三个模型在形状相同之处从相同的权重出发（针任务则让每个模型从它自己发布的预热权重出发）；种子越多，越能看出差别里有多少只是训练噪声。
train-setup = 训练什么
train-task = 学习内容
train-task-plays = 莎士比亚：三部训练剧本（33.3 万字符），留出部分：《错误的喜剧》开头
train-task-pasted = 你粘贴的文本（最后十分之一留出）
train-paste-label = 你的文本（至少几百个字符；只能用莎士比亚模型认识的字符）
train-size = 规模
train-size-name = { $size ->
    [small] 小：一分钟内就能看到学习
    [medium] 中：几分钟
   *[large] 大：给有耐心的人
}
train-size-note = 宽度 { $dim }，{ $layers } 层，每次读 { $context } 个字符，每步 { $batch } 个窗口，共 { $steps } 步
train-models = 模型
train-seeds = 种子数
train-start = 训练
train-pause = 暂停
train-resume = 继续
train-stop = 停止
train-loading = 正在加载训练文本……
train-not-text = { $file } 不是文本文件。
train-too-short = 文本太短：{ $have } 个字符，这个规模至少需要 { $need } 个（两个用来学习的窗口和两个留出的窗口）。
train-unknown-chars = 模型的字母表（莎士比亚模型的）里没有 { $chars }：请替换或删除这些字符。
train-held-out-part = 最后 { $chars } 个字符留出，用来计算留出损失；模型从前面的 { $train } 个字符学习。
train-idle = 按“训练”开始。不会发送任何数据：一切都在这个浏览器里运行。
train-running = 训练中。
train-starting = 正在开始：先评估未训练的模型（第一次还要下载训练线程的代码，约 300 KB）。
train-pausing = 正在暂停：正在进行的步骤先完成。
train-paused = 已暂停。
train-stopped = 已停止：模型到目前为止学到的内容保留在下面，可以下载保存。
train-done = 完成。
train-progress = 所有运行合计第 { $done } 步，共 { $total } 步；每秒 { $chars } 个字符。
train-progress-start = 所有运行合计第 0 步，共 { $total } 步。
train-left = 大约还剩 { $left } 秒。
train-failed-runs = { $count } 个运行提前停止（见下）。
train-others-go-on = 其他运行继续。
train-all-failed = 所有运行都提前停止了（见下），本次训练不会再有进展。
train-run-name = { $kind }，种子 { $seed }
train-not-finite = { $run } 在第 { $step } 步停止：它的损失不再是有限的数（学习率对它太高）。
train-worker-failed = { $run } 停止了：{ $why }。
train-where = 每个运行（模型 × 种子）在这台电脑处理器上的后台线程里训练，一次一段步数，所以页面保持流畅；标签页在后台时会继续训练，只是更慢。离开本页就会停止。
train-now = { $kind }：留出损失未训练时 { $first }，第 { $step } 步时 { $last }（{ $unit }；越低越好）
train-chart-empty = 训练跑了几步之后，曲线就会出现。
train-x-step = 训练步数
train-y-loss = 损失（{ $unit }）
train-loss-title = 训练损失
train-loss-explain = 每一步批次上的损失，取最近 { $smooth } 步的平均。{ $band ->
    [yes] 实线是一个模型在各个种子上的平均；两侧的虚线是它最好和最差的种子：两个模型的带状区域重叠的地方，种子无法区分它们。
   *[no] 只有一个种子：每条线是一次训练，看不出换一个种子它会变化多少。
}
train-held-out-title = 留出损失
train-held-out-explain = 在模型从不学习的文本（16 个固定窗口）上的损失，每次评估时计算：这才是能推广的部分。{ $band ->
    [yes] 各种子的平均，最好和最差的种子用虚线表示。
   *[no] 只有一个种子：每个模型一次训练。
}
train-lambda-title = 每层的 λ
train-lambda-explain = DIFF V1 的 λ（每层一个）和 DIFF V2 的 λ（每个词元和头各一个；取平均），在各种子上平均，看训练如何改变它们。
train-lambda-series = { $kind }，第 { $layer } 层
train-maps-title = 学习过程中注意力落在哪里
train-maps-explain = 种子 1 的第 0 个头在一段固定留出文本上的注意力：行是正在“看”的字符，列是被看的字符。训练进行时显示最近一次评估；训练结束后可以用滑块回到任何一次评估。
train-probe = 探针文本：“{ $text }”
train-layer = 层
train-scrub = 评估
train-latest = 最新
train-maps-step = 第 { $step } 步
train-map-baseline = { $kind }：注意力图
train-map-a1 = { $kind }：A1
train-map-a2 = { $kind }：A2
train-map-diff = { $kind }：A1 − λ·A2
train-verdict-title = 这些数字能支持什么结论
train-verdict-explain = 在所有留出窗口上的最终留出损失（越低越好）。每个 DIFF 模型都和同一种子的基线比较：平均差值（括号里是每个种子的差值）、它在种子间的 95% 区间（学生 t 分布：训练噪声），以及把每 8 个留出窗口作为一块重新抽样得到的区间（配对自助法：数据噪声）。只有两个区间都不包含零时，才说有差别。
train-col-model = 模型
train-col-final = 留出损失，平均
train-col-seeds = 每个种子
train-col-diff = 减去基线
train-col-seed-interval = 种子间 95% 区间
train-col-block-interval = 留出块间 95% 区间
train-verdict-one-seed = 只有一个种子时，{ $kind } − 基线 = { $diff } { $unit }：仅看留出块得到 { $blocks }，但一个种子无法把训练噪声和真正的差别分开。用 3 个种子训练才能知道。
train-verdict-same = 用 { $n } 个种子，{ $kind } 与基线无法区分（差值 { $diff } { $unit }；有一个区间包含零）。
train-verdict-better = 用 { $n } 个种子并跨留出块来看，{ $kind } 的留出损失比基线低 { $diff } { $unit }。
train-verdict-worse = 用 { $n } 个种子并跨留出块来看，{ $kind } 的留出损失比基线高 { $diff } { $unit }。
train-keep-title = 保存训练好的模型
train-keep-explain = 每个运行当前的权重，以及模型浏览器“你自己的检查点”能读取的配置文件，还有一张说明它如何训练的卡片。
train-keep-run = { $kind }，种子 { $seed }，第 { $step } 步：
train-save-weights = 权重（.safetensors）
train-save-config = 配置（.json）
train-save-card = 卡片（.md）
train-curves-csv = 曲线（CSV）
note-train-task = task={ $raw } 不是 plays、pasted 或 needle；改为在剧本上训练
note-train-size = size={ $raw } 不是 { $all } 之一；改为训练小规模
note-train-model = models 中的 { $raw } 不是模型（baseline、diff_v1、diff_v2）；已略去
note-train-no-model = models 没有指定任何模型；改为训练全部三个
train-task-needle = 针检索：发布的针模型，从复制预热之后继续微调
train-needle-note = 与发布的针模型同样大小（宽 64，3 层），每个模型从它在复制预热之后保存的检查点 { $checkpoint } 出发：它会复制词，但从没被问过任何一根针。{ $steps } 步中的每一步给它 { $batch } 个新提示，每个含 1 到 6 根针（没被问到的针是干扰项），损失只计答案。种子改变提示及其顺序，不改变起始权重。
train-progress-needle = 所有运行合计第 { $done } 步，共 { $total } 步；每秒 { $prompts } 个提示。
train-unit-text = 奈特/字符
train-unit-needle = 奈特/答案
train-now-accuracy = 检索准确率：开始时 { $first } %，现在 { $last } %。
train-held-out-explain-needle = 在 32 个模型从不学习的固定提示上的损失，只计答案，每次评估时计算。{ $band ->
    [yes] 实线是各种子的平均，虚线是最好和最差的种子。
   *[no] 只有一个种子：每个模型一次运行。
}
train-accuracy-title = 检索准确率
train-accuracy-explain = 在 32 个留出问题中，最可能的下一个词正是被问那根针的值的比例，每次评估时计算。{ $band ->
    [yes] 实线是各种子的平均，虚线是最好和最差的种子。
   *[no] 只有一个种子：每个模型一次运行。
}
train-y-accuracy = 准确率（%）
train-maps-explain-needle = 种子 1 的第 0 个头在一个固定提示上的注意力：提示里有四根针，问的是第一根；行是正在“看”的词，列是被看的词。会检索的头把“→”那一行的权重放在被问的针上；看看它是否形成、在哪里形成。训练进行时显示最近一次评估；训练结束后可以用滑块回到任何一次评估。
train-verdict-explain-needle = 在全部 128 个留出提示上的最终留出损失，只计答案（越低越好）。每个 DIFF 模型都和同一种子的基线比较：平均差值（括号里是每个种子的差值）、它在种子间的 95% 区间（学生 t 分布：训练噪声），以及把每 8 个留出提示作为一块重新抽样得到的区间（配对自助法：数据噪声）。只有两个区间都不包含零时，才说有差别。
