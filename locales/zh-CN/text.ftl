# 文本页：三个在莎士比亚剧本上训练的字符级模型，读学生输入的文字。
page-text = 你自己的文字
text-intro = 随便输入什么。三个小型字符级模型——基线 Transformer、DIFF V1 和 DIFF V2——以相同方式在莎士比亚剧本上训练，并排读取最多最后 { $context } 个字符。每一列显示模型对每个字符有多意外、它预计下一个字符是什么，以及某一层某个头看向哪里。
text-box-label = 模型读取的文字（最多最后 128 个字符）
text-type-something = 请输入文字：模型至少需要一个字符。
text-cut = 只读取最后 { $context } 个字符；之前的 { $cut } 个字符被略去。超过 { $max } 个字符后，窗口每次前移 { $step } 个字符，所以大多数按键只需重新计算新输入的字符。
text-unknown = 这些字符从未出现在训练剧本中，被读作同一个未知符号（□）：{ $chars }
text-models-loading = 三个文本模型
text-computed = 三列显示的是当前输入的文字。
text-empty = 没有可读的文字。
text-vocab-mismatch = { $kind } 模型读取 { $model } 个符号，而 vocab.json 列出 { $vocab } 个：这些文件不是一套。
text-timing = 上次修改：三列用时 { $ms } 毫秒。
text-mean = 这段文字上每字符 { $nats } 奈特（{ $bits } 比特）
text-top-label = 下一个字符，最可能的五个：
text-char-loss = “{ $ch }”：{ $loss } 奈特
text-first-char = 第一个字符：前面没有内容可以用来预测它。
text-strip-label = 每个字符按模型的意外程度（以奈特计的损失）着色：越深越意外。
text-strip-csv = 意外程度导出为 CSV
text-map-explain = 行 = 发出注意的字符，列 = 被注意的字符；最后一行（描边）用来预测下一个字符。
text-branches = 两张 softmax 图 A1 和 A2
text-lambda-used = 此层此头的 λ：{ $lambda }
text-locality = 最后一个字符的那一行把 { $near_weight } 的权重放在最后 { $near } 个字符上，把 { $far_weight } 放在之前的 { $far } 个字符上（平均每个 { $per_far }）：留在远处字符上的就是差分注意力想要抵消的噪声底。
text-knob-ckpt = 训练检查点
text-knob-layer = 层
text-knob-head = 头
text-knob-lambda = 此层 DIFF V1 的 λ
text-knob-temp = 温度（0 = 贪心）
text-knob-topk = 只在最可能的 k 个中抽取（top-k）
text-knob-seed = 随机种子
text-ckpt-shown = 第 { $index } 个，共 5 个
text-lambda-learnt = 学到的值
text-lambda-reset = 恢复学到的 λ
text-greedy = 贪心
text-write-on = 接着写
text-stop = 停止
text-write-explain = “接着写”让每个模型一次一个字符地续写文字。三个模型使用相同的随机数，所以它们写得不同，是因为模型不同。续写总在 CPU 核心上进行（无论各列在哪里计算）：它保留每个模型的键和值，每个新字符只计算一行。
text-results-title = 三个模型在从未读过的剧本上的表现
text-results-caption = 留出剧本（《尤利乌斯·恺撒》《麦克白》《错误的喜剧》《暴风雨》《第十二夜》）上的损失，并以一个经典的 n 元语法模型作参照
text-th-loss = 每字符奈特，长上下文（{ $seeds ->
        [one] 一个种子
       *[other] { $seeds } 个种子的均值 ± 标准差
    }）
text-th-bits = 每字符比特
text-th-versus = 减去基线 [95%：文本与种子]
text-th-text-alone = 只计文本 [95%：块自助法，种子取平均]
text-verdict-better = { $model } 对留出剧本的预测优于基线：各种子平均每字符 { $diff } 奈特（各种子：{ $seeds }），95% 区间 [{ $low }, { $high }]，同时计入文本的波动和训练运行之间的波动。
text-verdict-worse = { $model } 对留出剧本的预测不如基线：各种子平均每字符 { $diff } 奈特（各种子：{ $seeds }），95% 区间 [{ $low }, { $high }]，同时计入文本的波动和训练运行之间的波动。
text-verdict-same = 在这个规模下，{ $model } 与基线没有可测出的差别：各种子平均每字符 { $diff } 奈特（各种子：{ $seeds }），95% 区间 [{ $low }, { $high }]，包含零。
note-text-link-long = 链接中的文字超过 { $max } 个字符；保留最后 { $max } 个。
ckpt-5-percent = 训练的 5%
ckpt-20-percent = 训练的 20%
ckpt-half-way = 训练一半
text-map-queries-marked = 查询 i ↓（0 … { $last }）；加框的第 { $row } 行是最后一个字符，这一行预测下一个字符
text-grid-explain = 每一层的每一个头（每个缩略图各用自己的色标）；数字是最后一个字符那一行放在最后 { $near } 个字符上的权重。点击一个即在上方显示它。
text-thumb = 第 { $layer } 层，第 { $head } 个头：最后一行有 { $weight } 的权重落在最后 { $near } 个字符上
text-knob-v2-scale = DIFF V2：每个 λ 乘以
text-knob-v2-pin = DIFF V2：每个 λ 固定为
text-v2-reset = DIFF V2：回到学到的 λ
text-gpu-no-model = 模型尚未加载
text-results-method = 长上下文损失：留出剧本中除每部剧第一个字符外的全部 { $characters } 个字符，只要剧本允许，每个字符都以前面至少 { $context } 个字符为上下文来预测；每个模型 { $seeds } 个训练种子。窗口损失：{ $windows } 个互不重叠、各 { $length } 个字符的窗口，每个窗口从其开头起预测（平均约 64 个字符的上下文），即上面曲线所用的方法。每个差值的区间：对 { $blocks } 个各 { $block } 个字符的文本块做配对自助法（相邻字符的损失相关，所以按块而不是逐个重抽样），再与种子之间的差异合并。
play-twelfth-night = 《第十二夜》
play-the-tempest = 《暴风雨》
play-the-comedy-of-errors = 《错误的喜剧》
play-macbeth = 《麦克白》
play-julius-caesar = 《尤利乌斯·恺撒》
text-results-old = 这个评估文件早于多种子和长上下文损失；请重新运行 difflens-trainer text-eval。
text-th-play-versus = { $model } − 基线
text-th-play = 剧本
text-per-play-caption = 每个留出剧本上的长上下文损失（每字符奈特；Transformer 为 { $seeds } 个种子的平均），以及每个 DIFF 模型减去基线
text-ngram-behind = 在同样的训练文本上用 { $seconds } 秒计数得到的经典 Kneser–Ney { $order } 元语法达到每字符 { $loss } 奈特：最好的 Transformer 比它低 { $gap }，不过{ $share ->
        [100] n 元语法仍在每一个文本块上都更低。
       *[other] 对每个模型，n 元语法仍在至少 { $share }% 的文本块上更低。
    }
text-ngram-ahead = 一个经典的字符模型比三个模型都好：在同样的训练文本上用 { $seconds } 秒计数得到的 Kneser–Ney { $order } 元语法达到每字符 { $loss } 奈特，比最好的 Transformer 低 { $gap }，并且{ $share ->
        [100] 在每一个文本块上都比每个模型低。
       *[other] 对每个模型都在至少 { $share }% 的文本块上更低。
    }这些 Transformer 很小，读训练文本还不到一遍；在这个规模和预算下计数仍然占优，本页能比较的是三种注意力之间的差别，而不是与最先进水平的差距。
text-ngram-no-seed = （无种子：计数得到，不经训练）
text-ngram-name = Kneser–Ney { $order } 元语法
text-verdict-one-seed = 每个模型只评估了一次训练运行，所以这些区间只计入文本的波动，没有计入种子之间的波动。
text-th-window = 窗口损失，种子 1
text-th-seeds = 各个种子
text-own-title = 用你自己的模型来读
text-own-explain = 你在训练页上训练的模型（“保留训练好的模型”：它的权重和配置），或任何使用同一字母表的模型，会立即替换同类模型所在的那一列：两个文件只在本页面中读取，不会发送到任何地方。
text-own-choose = 选择这两个文件：{" "}
text-own-vocab = 这个模型读取 { $model } 个符号，而文本模型的字母表有 { $vocab } 个：它是用别的符号训练的（比如针模型），读不了这段文本。
text-own-loaded = { $kind } 那一列现在显示你的模型（{ $label }）。
text-own-column = { $kind }：你的模型
text-own-cpu = 你自己的模型在 CPU 核心上运行
text-own-note = 标着“你的模型”的那一列显示的是 { $label }；下面的评估是发布模型的。

## 由播报区读出（issue 45）
text-said-guess = { $model }“{ $ch }”（{ $p }）
text-said-next = 下一个字符：{ $guesses }。
text-said-writing = 三个模型正在续写。
text-said-wrote = { $model }写道：{ $text }
