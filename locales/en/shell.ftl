# The shell: header, navigation, notices and footer, on every page.

shell-pitch = Watch differential attention cancel the noise floor of softmax attention.
shell-pages = Pages
shell-device-lost = The GPU stopped working: { $reason }. DiffLens switched to the CPU path; everything still works, only slower.
shell-unknown-page = There is no page called “{ $page }”; showing the lab.
shell-locked = This link is pinned by its author: move anything you like; reloading the page brings back the link's values.
shell-footer = DiffLens follows the official DIFF Transformer code (microsoft/unilm). Every number on this page is computed in your browser.
shell-accessibility = Accessibility statement
shell-why-not-gpu = Why not the GPU?

page-learn = Lesson
page-lab = Noise-floor lab
page-model = Model explorer
page-arch = Architecture calculator
page-bench = Benchmarks

badge-detecting = Looking for WebGPU…
badge-cpu = Running on your CPU: everything works, a little slower

lang-label = Language
lang-auto = As the browser
theme-label = Colours
theme-auto = As the system
theme-light = Light
theme-dark = Dark

offline-saving = Saving DiffLens on this device for offline use…
offline-saved = Saved on this device: DiffLens and its models open without a network from now on.
offline-failed = DiffLens could not be saved for offline use ({ $why }); it works online as before.

embed-copy = Copy embed code
embed-copied = Embed code copied. Paste it into a slide or a web page; add &controls=lambda,n to the link to keep only those sliders.
embed-not-copied = The browser did not allow copying; select the code below and copy it.
embed-title = DiffLens: { $page }

close = Close
dismiss = Dismiss
# Between the sentences of a notice.
list-separator = ;{" "}
notice-adjusted = Some settings in the link were adjusted:
note-lang = lang={ $raw } is not en or zh; the page uses the browser's language

panic = DiffLens hit an internal error and stopped: { $info }. Reload the page to start again; the link keeps your settings.
reload = Reload

# The lab's sliders (also in the lesson).
knob-lambda = λ (how much of A2 to subtract)
knob-n = Sequence length N (log scale)
knob-noise = Noise amplitude σ
knob-signal = Signal strength s (logit boost)
knob-k = Signal keys
knob-common = Noise shared by both branches
knob-seed = Seed

# What a link said that could not be used (the notices under the header).
note-not-a-number = { $key }={ $raw } is not a number; kept { $kept }
note-below = { $key }={ $raw } is below { $min }; set to { $min }
note-above = { $key }={ $raw } is above { $max }; set to { $max }
note-invalid = { $key }={ $raw } is not a valid value; kept { $kept }
note-row-not-number = row={ $raw } is not a row number; showing the default row
note-unknown = unknown setting `{ $key }` ignored
note-row-beyond = row={ $row } is beyond the last query ({ $last }); chart closed
note-signal-keys = k={ $k } signal keys do not fit in n={ $n } (at most half); set to { $max }
note-unknown-on-step = unknown setting `{ $key }` ignored on this step
note-flag = { $key }={ $raw } is not 1 or 0; { $key } is off
note-control = controls: “{ $name }” is not a control's name
note-theme = theme={ $raw } is not light or dark; the page follows the system's theme
note-controls-reduced = controls= only applies with present=1 or embed=1; every control is shown

# Why the page is not on WebGPU, and what went wrong with a worker or the offline copy.
why-no-navigator-gpu = this browser does not offer WebGPU (navigator.gpu is missing)
unnamed-adapter = unnamed adapter
no-reason = no reason given
device-lost = the GPU device was lost ({ $message })
worker-could-not-start = a worker could not start: { $error }
worker-failed-to-start = the worker failed to start
worker-failed = the worker failed: { $message }
worker-slow = the worker did not start within { $seconds } s
worker-banner = A background worker failed ({ $why }). Its work was finished on this page, and the next computation starts a fresh worker.
worker-banner-training = A background worker failed ({ $why }). Training sends its chunk to a fresh worker; a run whose chunk fails twice stops there.
worker-gone = the worker went away
worker-send = the job could not be sent: { $error }
worker-none = this browser could not start a worker
offline-file = a file could not be saved
