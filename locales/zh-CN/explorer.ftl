# 模型探索器，以及课程借用的部分。

kind-baseline = 基线 Transformer
kind-diff-v1 = DIFF Transformer V1
kind-diff-v2 = DIFF Transformer V2
map-softmax = A（softmax）
cell-query-key = 查询 { $i }“{ $query }”→ 键 { $j }“{ $key }”
status-loading = 正在加载{ $what }…
status-ready = 已算完。每个模型的预测下方注明了计算的位置：WebGPU 或 CPU 核心。
status-failed = 无法加载模型：{ $error }
status-run-failed = 无法运行这个提示词：{ $error }
try-again = 重试
