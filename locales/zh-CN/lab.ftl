# 噪声底实验室（#/lab）。

lab-title = 噪声底实验室
lab-intro = 每一行是一个查询，每一列是一个键。少数几个键与每个查询真正匹配（信号键，在图上方标有刻度）；其余的键得到的都是随机分数。softmax 给每一个键都分一点权重：这就是噪声底。差分注意力再算一张噪声部分相同的图，然后把它减掉。
lab-dev-summary = 开发者用：检查 GPU
lab-dev-explain = 在 WebGPU 路径上，注意力图在 GPU 上计算；这里在 CPU 上重新计算一遍并加以比较，同时检查 GPU 自己的 λ 计算核，以及另一套 GPU 计算核（硬件 GPU 用的每行一个工作组，软件 GPU 用的每行一个调用）算出的注意力图和 λ 更新，两套都在这台设备上检查。
lab-a1-explain = 标准注意力。带刻度的列是信号键，亮度由信号强度决定；其他地方的斑点是被噪声分走的权重。
lab-a2-explain = 第二个分支看不到信号，只看到噪声，其中“共享”的部分与 A1 的相同。它量出了噪声底。
lab-diff-explain = 蓝色为负，红色为正，白色为零。噪声共享的地方相互抵消成白色；信号列保留下来。把 λ 设为 0：差值就是 A1。
lab-colour-scale = 色标
lab-contrast-explain = 平方根和对数色标能让微弱的噪声底显现出来；线性色标显示真实的比例。
lab-chart-lambda-label = 差分注意力的信噪比随 λ 的变化
lab-chart-lambda-explain = A1 − λ·A2 的信噪比随 λ 的变化（对数刻度）。λ = 0 时就是标准注意力；λ 太大会连信号也减掉。最佳的 λ 抵消尽可能多的共享噪声。
lab-chart-noise-label = 信噪比随噪声幅度的变化
lab-chart-noise-empty = 正在计算第一个噪声水平…
lab-chart-noise-explain = 随着噪声增大，标准注意力的信噪比不断下降，直到信号键得到的权重不到普通噪声键的两倍：到那里它就不再可用。噪声共享时，差分注意力能坚持得更久。
lab-chart-context-empty = 正在计算八种上下文长度下的噪声权重…
lab-chart-context-explain = 一个查询放在噪声键上的权重总和，键数从 1k 到 128k（对数坐标轴）。每个噪声键几乎分不到什么，但它们会累积：每个键 0.0001%，乘以 128 000 个键就是 12.8%（0.001% 会得出 128%，这不可能，因为 softmax 的一行加起来等于 1）。差分曲线累加的是 A1 − λ·A2 的 |权重|：它的每一行加起来等于 1 − λ，但其中有正有负，所以总和可能超过 1。
lab-verify-cpu = 这个问题是在 CPU 上算的，没有 GPU 结果可以比较。
lab-verify = 用 CPU 验证 GPU
lab-lambda-init-depth = 该层深度的 λ_init
lab-lambda-init-explain = λ_init = 0.8 − 0.6·e^(−0.3·depth)，论文中的初始化方案。
lab-new-sample = 重新采样
lab-copy-link = 复制链接
lab-readout-standard = 信噪比，标准注意力（A1）
lab-readout-diff = 信噪比，差分注意力（A1 − λ·A2）
lab-readout-gain = 差分 ÷ 标准
lab-readout-row-sum = A1 − λ·A2 的每一行加起来等于 1 − λ
lab-mass-explain = 每个查询的注意力分布（论文表 3 的缩小版）：信号键上的权重，以及其余键上的 |权重| 总和。
th-attention = 注意力
th-on-signal = 信号上
th-on-noise = 噪声上
lab-standard-a1 = 标准注意力（A1）
lab-chart-row-label = 所选查询在各个键上的权重
lab-row-explain = 红点标出信号键。蓝色：标准注意力（A1），它给每个键都分一些权重。橙色：当前 λ 下的 A1 − λ·A2；两个分支共享噪声时，在信号键以外它保持在零附近，也可能略低于零。
lab-on-cpu = CPU（WebAssembly）
lab-computing = 正在计算 N = { $n } 的注意力图…
lab-computing-new = 正在计算 N = { $n } 的新注意力图…算好之前，下面显示的仍是之前的设置（N = { $have }）。
lab-cell = 查询 i = { $i }，键 j = { $j }
lab-cell-signal = 查询 i = { $i }，键 j = { $j }（信号键）
lab-pooled = { $n } × { $n } 的注意力图以 { $r } × { $r } 像素显示：每个像素显示其所在块中绝对值最大的元素（最大幅值池化），所以单个尖峰仍然看得见。
lab-not-pooled = { $n } × { $n } 的注意力图：每个元素画成一个格子，没有池化。
lab-noise-progress = 正在计算第 { $k } 个噪声水平，共 { $all } 个（每个都是一个完整的问题）…
lab-noise-done = { $all } 个噪声水平，σ 从 0 到 6。
lab-verify-failed = GPU 检查失败：{ $error }。
link-copied = 链接已复制：{ $link }
link-not-copied = 浏览器不允许复制；请从这里复制：{ $link }
lab-set-lambda-init = 设 λ = λ_init = { $value }
lab-seed = 随机种子
lab-compute-note = 计算位置：{ $on }。上一个新问题：{ $problem } 毫秒；上一次 λ 更新（池化和求和，在注意力图的主机副本上）：{ $lambda } 毫秒。
lab-row-title = 查询 { $i }：在每个键上的权重
lab-weight = 权重
lab-differential-a1-a2 = 差分注意力（A1 − λ·A2）
lab-unusable = 标准注意力在 σ ≈ { $sigma } 处失效
lab-noise-x = 噪声幅度 σ
series-standard = 标准注意力
series-differential-at = 差分注意力，λ = { $lambda }
