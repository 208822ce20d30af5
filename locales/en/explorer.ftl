# The model explorer, and what the lesson borrows from it.

kind-baseline = Baseline Transformer
kind-diff-v1 = DIFF Transformer V1
kind-diff-v2 = DIFF Transformer V2
map-softmax = A (softmax)
cell-query-key = query { $i } “{ $query }” → key { $j } “{ $key }”
status-loading = Loading { $what }…
status-computing = Running the prompt through the models…
status-ready = Computed. Under each model's predictions it says where: WebGPU or the CPU core.
status-failed = Could not load the model: { $error }
status-run-failed = Could not run the prompt: { $error }
try-again = Try again

# Your own prompt.
prompt-explain = Words separated by spaces. A needle is “KEY is VALUE .” anywhere before the first “?”; the prompt ends with one or more queries “? KEY →” (the value after a “→” lets the next query follow). Each model answers at every “→”. The models know only these words:
prompt-label = Your prompt
prompt-use = Use this prompt
prompt-from-screen = Start again from the prompt on screen
prompt-generated = Back to generated prompts
needle-group = This needle
needle-a-depth = a depth…
needle-remove = Remove this needle
needle-ask = Ask about it
query-remove = Remove this query
token-bos = position 0: the start of every prompt
token-editor = Replace a word of the prompt
token-replace = Replace
cancel = Cancel
prompt-click-help = Click a word to replace it (a needle's value changes the answer, its key must still match a query), to move or remove its needle, or to ask about it.
needle-add-at = Add a needle at
needle-add = Add a needle
unknown-error = unknown error
fetch-failed = could not fetch { $url }: the connection failed ({ $error }). Check the network and try again.
fetch-not-response = { $url }: not a response
fetch-http = { $url }: the server answered HTTP { $status }
fetch-broke-off = { $url }: the download broke off ({ $error })
fetch-timeout = { $url }: the server did not answer within { $seconds } s.
page-closed = the page was closed
vocab-markers = markers
vocab-keys = keys
vocab-values = values
vocab-filler = filler
prompt-in-use = Your own prompt is in use: edit it
prompt-write = Write your own prompt
depth-start = 0% (the start)
depth-end = 100% (the end)
needle-move = Move “{ $words }” (now { $now }% deep) to
token-position = position { $i }: { $word }; click to replace
token-replace-with = Replace “{ $word }” (position { $i }) with{" "}

# The compare view.
compare-explain = Each column runs the same prompt. The large map is the one that multiplies the values: A1 − λ·A2 for the DIFF models, the softmax map A for the baseline; red adds, blue subtracts, and the three share one colour scale (as do the small A1 and A2 maps). Click a thumbnail in a model's grid to show another head; by default each column shows the head of the chosen layer with the most net weight on the asked needle.
grid-explain = Every head (each thumbnail on its own scale); the number is its net weight on the asked needle.
grid-reset = Back to the best head
loading-checkpoint-three = checkpoint { $k } of the three models
and = {" and "}
loading-models = the models
checkpoint-of-five = checkpoint { $k } of 5
compare-nothing-ran = Last update: every column was already computed; nothing ran again.
compare-timing = Last update: { $n } forward { $n ->
        [one] pass
       *[other] passes
    } with every map kept, { $ms } ms on { $on }.
which-auto = Layer { $layer }, head { $head }: the head with the most net weight on the asked needle
which-picked = Layer { $layer }, head { $head }: picked on the grid
net-sentence = The “→” row of this head puts a net weight of { $answer } on the asked needle and { $noise } on the rest of the context.
prediction-right = Query { $k }: predicts { $predicted } ({ $percent }%), the answer is { $answer } — right
prediction-wrong = Query { $k }: predicts { $predicted } ({ $percent }%), the answer is { $answer } — wrong
grid-layer = layer { $layer }
grid-heads-of = Heads of { $model }
thumb = Layer { $layer }, head { $head }: net weight { $net } on the asked needle
thumb-best = Layer { $layer }, head { $head }: net weight { $net } on the asked needle, the most in this layer

# The paper's evidence, live (Tables 2, 3 and 5).
evidence-prompt = The paper's evidence, on this prompt
evidence-fresh = The paper's evidence, over fresh prompts
all-layers = all layers
net-table-explain = Table 3, live: where the “→” row puts its weight. Net weight (in the map that multiplies V: A1 − λ·A2, or A for the baseline) on the asked needle and on the rest of the context, averaged over each layer's heads. The paper reports DIFF with more on the answer and less on the noise. The numbers come from each column's run above (each column says where it was computed).
th-layer = layer
th-needle = needle
th-rest = rest
magnitude-explain = Table 5, live: the largest and the median magnitudes of the scaled attention logits (every head and branch, the positions a query may see) and of the hidden states after each layer, for this prompt. The paper reports smaller outliers for DIFF, which is why its logits survive low-bit quantisation. From each column's run above, computed where that column says.
th-logits-top1 = logits top-1
th-top10 = top-10
th-median = median
th-hidden-top1 = hidden top-1
accuracy-title = Table 2, live: retrieval accuracy
sweep-title = Table 3, live: the depth sweep
sweep-run = Sweep the depths
sweep-answer-label = Net weight on the asked needle against its depth, per model
sweep-empty = Press “Sweep the depths” to measure.
sweep-noise-label = Net weight on the context noise against the needle's depth, per model
negative-learnt = { $model } learnt λ = −{ $lambda } in layer { $layer }
negative-yours = { $model } has your λ = −{ $lambda } in layer { $layer }
negative-list = { $list }.
negative-explain = {" "}A negative λ turns A1 − λ·A2 into A1 + |λ|·A2: that layer adds the second map instead of subtracting it, so its weight on the context grows rather than cancels.
negative-learnt-why = Our tiny model learnt this from a positive start: every λ begins at λ_init, between 0.2 and 0.8.
settings-f32 = f32 attention logits
settings-bits = attention logits at { $bits } bits
settings-your-lambda = {","} your λ for { $models }
settings = N = { $needles } needles, R = { $queries } queries, context { $context } ({ $times }× the training length), { $precision }{ $lambda }
no-worker-answered = no worker answered
worker-stopped = A background worker stopped ({ $why }); its prompts ran on the page's own thread instead.
accuracy-explain = { $prompts } fresh prompts with the settings above ({ $settings }); each model answers every query at its “→”. Change the context length to 2× or 4× to test length generalisation, or the attention logits to 4 bits for the paper's Figure 8. They compute on the CPU core (WebAssembly) in { $workers } background { $workers ->
        [one] worker
       *[other] workers
    }, each with its own copy of the models, so the page stays responsive.
accuracy-run = Run { $prompts } prompts
run-stopped = Stopped: { $error }
run-progress = { $done } of { $total } prompts…
run-cancelled = Cancelled after { $done } of { $total } prompts.
run-done = Done: { $total } prompts.
bar-value = { $percent }% ({ $right } of { $asked } queries)
bars-for = For { $settings }:
sweep-answer-title = Net weight on the asked needle
sweep-noise-title = Net weight on the context noise
sweep-x = depth of the asked needle (%)
sweep-y = net weight
sweep-explain = { $prompts } fresh prompts at each of five depths of the asked needle (0, 25, 50, 75, 100% into the context), one query each; every model's net weight at “→”, averaged over heads, layers and prompts, as the README's Table 3, computed on the CPU core (WebAssembly) in the page's background workers, a few prompts per job. Settings: { $settings }.

# The explorer's page and controls.
model-intro = Three tiny models, trained in this repository to find a city's number among filler words: a baseline Transformer, DIFF V1 and DIFF V2 with matched parameter counts. Put them side by side on one prompt, or take one and scrub through its training, and see where the position that must answer looks.
model-view = View
view-compare = Side by side
view-single = One model
model-model = Model
model-context = Context length
model-layer = Layer
model-head = Head
model-bits = Attention logits
model-new-prompt = New prompt
compute-on = Where the models run
mknob-ckpt = Training progress
mknob-needles = Needles in the context
mknob-queries = Queries asked
mknob-depth = Depth of the asked needle
mknob-layer = Layer
mknob-head = Head
mknob-seed = Seed
model-yours = Your model ({ $label })
depth-random = random
context-training = 64 (training length)
context-times = { $context } ({ $times }× training)
bits-f32 = f32 (as trained)
bits-absmax = { $bits }-bit absmax
model-own-prompt-note = Your own prompt is in use; the needle, query, depth and length controls make generated prompts (moving one, or New prompt, returns to them).
model-prompt-seed = Prompt seed
on-auto = Auto (WebGPU on a hardware GPU)
on-gpu = WebGPU
on-cpu = The CPU core (WebAssembly)
on-gpu-missing = WebGPU (not available in this browser)

# One model.
single-a1-explain = The first softmax map of the head (for the baseline, its only map). Ticks mark the needle being asked about. Click a row (or press Enter on it) to plot it below.
single-a2-explain = The second softmax map: what the head subtracts.
single-diff-explain = The map that multiplies the values. Red adds, blue subtracts, white ignores.
single-row-label = Attention of one query row over the prompt
single-row-reset = Back to the “→” row
single-no-gpu = This browser runs the CPU path, so there is no GPU to compare here.
single-gpu-check = Run on WebGPU and compare
loading-checkpoint = { $model } checkpoint { $k }
loading-model = model
single-dev-explain = The WebGPU forward pass of these models is checked against this CPU result in the project's tests (logits within { $logits }, maps within { $maps }).
single-row-title = Row { $row } (“{ $token }”) over the prompt, layer { $layer } head { $head }
single-key-position = key position
single-row-picked = Row { $row } (“{ $token }”), picked on a map.
single-row-answer = The row of “→” (position { $row }), the token that must produce the answer.
single-row-dots = Red dots mark the asked needle “KEY is VALUE .”.
single-running-gpu = running on WebGPU…
single-lambda = λ of layer { $layer }: { $lambda }
single-lambda-per-token = λ of layer { $layer } at “→” (per head): { $values }
single-no-lambda = no λ: the baseline subtracts nothing
single-prediction-right = Query { $k }: predicts { $predicted } ({ $percent }%), the answer is { $answer } ({ $answer_percent }%) — right
single-prediction-wrong = Query { $k }: predicts { $predicted } ({ $percent }%), the answer is { $answer } ({ $answer_percent }%) — wrong

# Set λ yourself.
v1-explain = DIFF V1 learns one λ per layer. Move it and watch the maps and the prediction; at λ = 0 each head is the softmax attention of its first map (then normed and scaled by 1 − λ_init).
v1-zero = λ = 0 in every layer
v2-explain = DIFF V2 computes a λ for every token and head from the token itself. Scale them all, or replace them with one value; at λ = 0 each head is the softmax attention of its first map.
lambda-panel-changed = Set λ yourself (changed: this column uses your λ)
lambda-panel = Set λ yourself
v1-learnt-was = {" "}(learnt { $lambda })
v1-learnt = {" "}(learnt)
v1-layer = λ of layer { $layer }
v1-norm = Per-head norm (off: the paper's ablation without GroupNorm)
back-to-learnt = Back to the learnt λ
v2-not-in-use = {" "}(not in use)
v2-now-learnt = Now: the learnt λ, sigmoid(x·W_λ) for every token and head.
v2-now-scale = Now: every learnt λ times { $factor }.
v2-now-pin = Now: every λ pinned to { $lambda }, whatever the token.
v2-scale = Scale every λ by
v2-pin = Pin every λ to

# One attention layer, and your own model.
layer-open = Open one attention layer
layer-explain = One layer in the command-line tool's format (a safetensors file with the official parameter names: q_proj.weight, k_proj.weight, …), or one layer of a whole-model checkpoint. The file does not say what kind of layer it is or how many heads it has: say so here, as on the command line. The layer runs on a random x, or on x from a safetensors file ([T, E] or [1, T, E]); causal, with RoPE. Nothing is uploaded.
layer-file = The layer's file
layer-kind = Kind
layer-heads = Heads (differential heads for DIFF)
layer-depth = Depth (λ_init = 0.8 − 0.6·e^(−0.3·depth))
layer-tokens = Random x: tokens
layer-x = Or x from a file
layer-choose = Choose a layer's file.
layer-several = The file holds several layers; show
layer-a1-explain = The head's first softmax map (a softmax layer's only map).
layer-diff-explain = The map that multiplies the values.
layer-x-from = x from { $name }
layer-random-x = a random x of { $tokens } tokens (seed { $seed })
layer-ignored = {" "}The file also holds { $n } { $n ->
        [one] tensor
       *[other] tensors
    } this layer does not use.
layer-opened = Opened { $prefix } of { $file }: { $kind }, { $heads } heads, width { $width }, on { $from }.{ $ignored }
layer-cell = query { $i } → key { $j }
layer-lambda = λ = { $lambda }: one for every head of this layer (from the file's λ vectors and λ_init).
layer-lambda-per-token = λ per token and head (DIFF V2): from { $from } to { $to }.
layer-no-lambda = No λ: a softmax layer has one map per head.
own-title = Explore your own model
own-explain = A model in the README's whole-model format: one safetensors file and its JSON config, trained on this task's vocabulary (76 tokens). The files are read here, in your browser; nothing is uploaded. Your model is not in the page's link: a link opens the shipped models.
own-choose = Choose both files, or drop them here:{" "}
own-back = Back to the shipped models
own-unreadable = { $name } could not be read
own-two-files = choose two files, a .json config and a .safetensors file (got: { $got })
own-none = none
own-reading = Reading the files…
own-loaded = Loaded { $label }: { $kind }, { $layers } layers.
model-open-text = These models speak a made-up needle language. To see the same three kinds on real text you type, open “Your own text” →

## Said through the live region (issue 45)
said-prediction-right = query { $k } predicts { $predicted } ({ $percent }%), right
said-prediction-wrong = query { $k } predicts { $predicted } ({ $percent }%), wrong
said-model-predictions = { $model }: { $predictions }.
