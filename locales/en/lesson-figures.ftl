# The lesson's live figures: their sentences (computed from each figure's own problem),
# charts and tables.

change-rises = rises
change-falls = falls
change-same = stays about the same

facts-row = In query { $row }'s row the smallest weight is { $min }: small, but not zero. Together the { $noise_keys } noise keys hold { $noise } of the row's weight; the { $signal_keys } signal keys hold { $signal }.
facts-context = With noise σ = { $sigma }, the noise keys take { $first } of this query's weight among { $first_n } keys and { $last } among { $last_n } keys (expected: { $first_expected } and { $last_expected }). Each key's share shrank; their number grew faster.
speckle-same = the two maps' speckle is nearly the same
speckle-partly = the speckle is partly the same
speckle-different = the speckle of the two maps has little in common
facts-branches = With { $shared }% of the noise shared, A1's and A2's weights on the noise keys correlate at r = { $r } (1 would be identical): { $verdict }.
facts-subtract = At λ = { $lambda }, the first row of A1 − λ·A2 adds up to { $sum } (1 − λ = { $rest }). Per query, the total |weight| on noise keys { $noise_change } from { $noise_a1 } in A1 to { $noise_diff }, and the SNR { $snr_change } from { $snr_a1 } to { $snr_diff }.
facts-choose = Here the noise keys hold { $noise } of each row of A1, and the best λ is { $best }: SNR { $best_snr }, { $gain }× standard attention's { $standard }. At your λ = { $lambda }, SNR is { $snr }; at the end of the slider, λ = { $end }, it is { $end_snr }.
facts-failure = With { $shared }% of the noise shared, the best λ ({ $best }) lifts SNR { $verdict ->
        [barely] only from { $from } to { $to }: { $gain }×, so subtraction barely helps
        [less] from { $from } to { $to }: { $gain }×, so subtraction helps less
       *[still] from { $from } to { $to }: { $gain }×, so subtraction still helps
    }. With { $reference }% shared, as in the previous steps, the best λ gave { $reference_gain }×.
cost-baseline = Baseline
facts-cost = For a model of hidden size { $hidden }, { $heads } heads of { $head_dim } and { $layers } layers: DIFF V1 has { $v1_more }% more parameters than the baseline and reads { $v1_read }× its KV cache per decoded token; DIFF V2 has { $v2_more }% more parameters and reads { $v2_read }×.
facts-prediction-right = answers “{ $predicted }” ({ $percent }), right: the answer is “{ $answer }”
facts-prediction-wrong = answers “{ $predicted }” ({ $percent }), wrong: the answer is “{ $answer }”
facts-negative-lambda = Our DIFF V1 learnt λ = { $lambda } in its first layer. A negative λ adds the second map instead of subtracting it, so that layer spreads weight over the context instead of cancelling noise: the opposite of what the paper describes. We show it as it is.

# Step 1: one query's row.
fig-row-title = Query { $row }: weight on each of { $n } keys
fig-row-x = key j
fig-row-y = weight (log)
fig-row-series = softmax weight
fig-row-label = One query's softmax weights over every key, log scale; red dots are the keys that truly match
# Step 2.
fig-context-label = Weight one query puts on noise keys, against the number of keys
# Steps 3 and 4: the maps.
fig-tooltip = query { $i }, key { $j }
fig-diff-explain = Red positive, blue negative, white zero: where the noise was shared, it cancels.
fig-a2-explain = The second map: no signal, only noise, partly the same noise as A1's.
fig-a1-explain = Standard attention: the ticked columns are the keys that match.
# Steps 5 and 6.
fig-lambda-label = Signal-to-noise ratio of A1 − λ·A2 against λ, log scale, with the best λ and the current λ marked
lambda-init-caption = DIFF V1's starting λ by layer depth: λ_init = 0.8 − 0.6·e^(−0.3·depth)
th-depth = depth
# Step 7: the cost table.
cost-kv-heads = Key and value heads
cost-mha = 32 KV heads (one per query head)
cost-gqa = 8 KV heads (GQA)
th-model = model
th-attention-params = attention params / layer
th-whole-model = whole model
th-vs-baseline = vs baseline
th-kv-cache = KV cache / token
th-kv-read = KV read / decoded token
# Steps 8 and 9: the trained models.
lesson-three-models = the three trained models
lesson-computed = Computed on the CPU core, in your browser.
lesson-it-answers = It { $what }.
lesson-best-head = Last layer, head { $head }: the “→” row puts { $answer } of net weight on the asked needle and { $noise } on the rest of the context.
lesson-prompt = The prompt: { $prompt }
lesson-model-answers = { $model } { $what }.
lesson-models-facts = On this prompt { $right } of the three models answer right. { $each }
lesson-text-head = Layer { $layer } (the last), head 1, over the characters; the last row is outlined.
lesson-text-facts = On this line the last character's row, averaged over the last layer's heads, leaves { $base } of its weight on characters more than { $near } back in the baseline, { $v1 } in DIFF V1 and { $v2 } in DIFF V2. The three models are surprised by { $base_loss }, { $v1_loss } and { $v2_loss } nats per character on the line.
# Between two sentences.
sentence-gap = {" "}
right-percent = right ({ $percent })
wrong-percent = wrong ({ $percent })
paper-transformer = Transformer (paper, 3B)
paper-diff = DIFF (paper, 3B)
ours-tiny = { $model } (ours, tiny)
paper-caption = Attention on the answer and on the rest of the context (the paper's Table 3: mean over five depths; ours: the “→” row, every head of every layer, this prompt) and the attention logits' largest and median magnitude (Table 5).
th-on-answer = on the answer
th-on-context = on the context
th-largest-logit = largest logit
th-median-logit = median logit
th-four-bit = this prompt, logits in 4 bits
paper-four-bit-explain = The last column runs our models on this prompt with every attention logit stored in 4 bits (absmax, in every layer); the explorer's “Attention logits” control does the same for any prompt, and its “Run 100 prompts” counts the accuracy.
paper-model-line = { $model }: { $answer } on the answer, { $noise } on the context
paper-facts = On this prompt, averaged over every head: { $line }.

# Charts the lesson shares with the lab.
chart-snr-lambda = SNR against λ
chart-snr-log = SNR (log)
chart-best-lambda = best λ = { $lambda }
chart-context-title = Noise mass of one query against context length
chart-context-x = keys in context (log)
chart-context-y = weight on noise
series-standard-sampled = standard (sampled)
series-standard-expected = standard (expected)
series-differential = differential
contrast-linear = linear
contrast-sqrt = square root
contrast-log = log (4 decades)
colour-scale = colour scale: { $contrast }
colour-scale-diverging = colour scale: { $contrast }, blue below 0, red above

# Every heatmap.
map-keys = key j → (0 … { $last })
map-keys-ticks = key j → (0 … { $last }); ticks mark { $ticks }
map-signal-keys = the signal keys
map-queries = query i ↓ (0 … { $last })
map-queries-marked = query i ↓ (0 … { $last }); the outlined row { $row } is “→”, which predicts the answer
map-aria = { $title }: heatmap of { $n } queries by { $n } keys. Arrow keys move the cursor and read each value.
map-aria-pick = { $title }: heatmap of { $n } queries by { $n } keys. Arrow keys move the cursor, Enter plots the row.
map-download-group = Download this map
download = Download
map-asked-needle = the asked needle “{ $words }”
figure-keys = key j →
figure-queries = query i ↓
chart-download-group = Download { $label }
legend = Legend

## What a figure shows, in words and as a table (issue 45)
map-sum-favourite = { $rows } of { $all } queries put their largest weight on { $key }.
map-sum-favourite-pooled = In the picture, { $rows } of its { $all } rows put their largest weight on { $key }.
map-sum-none = No query puts a positive weight on any key.
map-sum-marked = { $rows } of { $all } queries attend most to { $what }; { $share } of all the weight falls there, { $rest } elsewhere.
map-sum-marked-magnitude = { $rows } of { $all } queries attend most to { $what }; { $share } of the weight's total magnitude lies there, { $rest } elsewhere.
map-sum-marked-pooled = { $rows } of the picture's { $all } rows attend most to { $what }.
map-sum-negative = { $share } of the weight's magnitude is negative.
map-sum-row = The outlined row, query { $query }, puts its largest weight ({ $value }) on { $key }.
map-sum-row-share = { $share } of that row's weight is on { $what }.
map-sum-pooled = (Read from the picture, pooled to { $r } × { $r } from { $n } × { $n }.)
map-key-one = key { $j }
map-key-label = key { $j } (“{ $label }”)
map-keys-range = keys { $from }–{ $to }
map-cell-read = query { $i }, key { $j }: { $value }
map-cell-read-pooled = query { $i }, key { $j }: { $value }, the largest in its block of the picture
chart-sum-curve = { $name } { $trend }: { $y0 } at { $xname } = { $x0 }, { $y1 } at { $x1 }; lowest { $ymin } (at { $xmin }), highest { $ymax } (at { $xmax }).
chart-sum-more = The table holds { $n } more curves.
chart-sum-markers = Marked: { $list }.
chart-trend-rises = rises
chart-trend-falls = falls
chart-trend-peaks = rises, then falls
chart-trend-dips = falls, then rises
chart-trend-flat = stays about level
show-as-table = Show as table
table-map-caption = { $title }: { $n } queries (rows) by { $n } keys (columns).
table-map-pooled = { $title }: pooled to { $t } × { $t } from { $n } × { $n }; each cell is the value of largest magnitude in its block of queries and keys, as in the picture.
table-corner = query ↓ key →
table-chart-caption = { $label }: one row per value of { $x }, one column per curve.
map-sum-versus-baseline = The baseline's outlined row puts { $share } of its weight on { $what }.
chart-aria = { $label }. Arrow keys read each point; Home and End, the first and the last.
chart-point = { $xname } = { $x }: { $values }
