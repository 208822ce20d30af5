# 外壳：每一页都有的页眉、导航、提示和页脚。

shell-pitch = 看差分注意力如何抵消 softmax 注意力的噪声底。
shell-pages = 页面
shell-device-lost = GPU 停止工作了：{ $reason }。DiffLens 已切换到 CPU 路径；一切照常，只是慢一些。
shell-unknown-page = 没有名为“{ $page }”的页面；现在显示的是实验室。
shell-locked = 这个链接已被作者固定：你可以随意调整，重新加载页面会恢复链接里的数值。
shell-footer = DiffLens 依照 DIFF Transformer 的官方代码（microsoft/unilm）实现。本页的每一个数字都在你的浏览器里计算。
shell-accessibility = 无障碍声明
shell-why-not-gpu = 为什么不用 GPU？

page-learn = 课程
page-lab = 噪声底实验室
page-model = 模型探索器
page-arch = 架构计算器
page-bench = 性能测试

badge-detecting = 正在查找 WebGPU…
badge-cpu = 在你的 CPU 上运行：功能齐全，只是慢一些

lang-label = 语言
lang-auto = 跟随浏览器
theme-label = 配色
theme-auto = 跟随系统
theme-light = 浅色
theme-dark = 深色

offline-saving = 正在把 DiffLens 保存到本设备，供离线使用…
offline-saved = 已保存到本设备：从现在起，DiffLens 和它的模型无需网络也能打开。
offline-failed = DiffLens 无法保存以供离线使用（{ $why }）；在线使用不受影响。

embed-copy = 复制嵌入代码
embed-copied = 嵌入代码已复制。把它粘贴到幻灯片或网页中；在链接后加上 &controls=lambda,n 可以只保留这些滑块。
embed-not-copied = 浏览器不允许复制；请选中下面的代码手动复制。
embed-title = DiffLens：{ $page }

close = 关闭
dismiss = 知道了
# 提示中句子之间的分隔。
list-separator = ；
notice-adjusted = 链接中的部分设置已被调整：
note-lang = lang={ $raw } 不是 en 或 zh；页面使用浏览器的语言

panic = DiffLens 遇到内部错误，已停止运行：{ $info }。请重新加载页面；链接会保留你的设置。
reload = 重新加载

# 实验室的滑块（课程中也用到）。
knob-lambda = λ（减去多少 A2）
knob-n = 序列长度 N（对数刻度）
knob-noise = 噪声幅度 σ
knob-signal = 信号强度 s（logit 增量）
knob-k = 信号键的个数
knob-common = 共享噪声（两个分支共有的比例）
knob-seed = 随机种子

# 链接中无法使用的设置（页眉下的提示）。
note-not-a-number = { $key }={ $raw } 不是数字；保留 { $kept }
note-below = { $key }={ $raw } 小于 { $min }；已设为 { $min }
note-above = { $key }={ $raw } 大于 { $max }；已设为 { $max }
note-invalid = { $key }={ $raw } 不是有效的值；保留 { $kept }
note-row-not-number = row={ $raw } 不是行号；显示默认的行
note-unknown = 未知设置 `{ $key }`，已忽略
note-row-beyond = row={ $row } 超出了最后一个查询（{ $last }）；已关闭图表
note-signal-keys = k={ $k } 个信号键放不进 n={ $n }（最多一半）；已设为 { $max }
note-unknown-on-step = 这一步没有设置 `{ $key }`，已忽略
note-flag = { $key }={ $raw } 不是 1 或 0；{ $key } 已关闭
note-control = controls：“{ $name }”不是控件的名称
note-theme = theme={ $raw } 不是 light 或 dark；页面跟随系统的配色
note-controls-reduced = controls= 只在 present=1 或 embed=1 时生效；显示全部控件

# 页面为什么没有用 WebGPU，以及后台线程或离线副本出了什么问题。
why-no-navigator-gpu = 这个浏览器不提供 WebGPU（没有 navigator.gpu）
unnamed-adapter = 未命名的适配器
no-reason = 未给出原因
device-lost = GPU 设备丢失了（{ $message }）
worker-could-not-start = 后台线程无法启动：{ $error }
worker-failed-to-start = 后台线程启动失败
worker-failed = 后台线程出错：{ $message }
worker-slow = 后台线程在 { $seconds } 秒内没有启动
worker-banner = 一个后台线程出错了（{ $why }）。它的工作已在本页完成，下一次计算会启动新的后台线程。
worker-banner-training = 一个后台线程出错了（{ $why }）。训练会把这一段交给新的后台线程；同一段失败两次的运行就此停止。
worker-gone = 后台线程已退出
worker-send = 任务无法发送：{ $error }
worker-none = 这个浏览器无法启动后台线程
offline-file = 有一个文件无法保存
