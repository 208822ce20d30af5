# The model explorer, and what the lesson borrows from it.

kind-baseline = Baseline Transformer
kind-diff-v1 = DIFF Transformer V1
kind-diff-v2 = DIFF Transformer V2
map-softmax = A (softmax)
cell-query-key = query { $i } “{ $query }” → key { $j } “{ $key }”
status-loading = Loading { $what }…
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
sweep-explain = { $prompts } fresh prompts at each of five depths of the asked needle (0, 25, 50, 75, 100% into the context), one query each; every model's net weight at “→”, averaged over heads, layers and prompts, as the README's Table 3, computed on the CPU core (WebAssembly). Settings: { $settings }.
