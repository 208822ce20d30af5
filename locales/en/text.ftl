# The text page: three character-level models on Shakespeare, on what a student types.
page-text = Your own text
text-intro = Type anything. Three small character-level models, a baseline Transformer, DIFF V1 and DIFF V2, trained the same way on Shakespeare's plays, read up to the last { $context } characters side by side. Each column shows how surprised its model is by every character, what it expects next, and where one head of one layer looks.
text-box-label = Text the models read (up to the last 128 characters)
text-type-something = Type some text: the models need at least one character.
text-cut = Only the last { $context } characters are read; { $cut } before them are left out. Past { $max } characters the window moves on { $step } at a time, so most keystrokes rerun only the new character.
text-unknown = These characters were never in the training plays and are read as one unknown symbol (□): { $chars }
text-models-loading = the three text models
text-computed = The three columns show the text as typed.
text-empty = There is no text to read.
text-vocab-mismatch = The { $kind } model reads { $model } symbols but vocab.json lists { $vocab }: the files do not belong together.
text-timing = Last change: the three columns in { $ms } ms.
text-mean = { $nats } nats per character ({ $bits } bits) on this text
text-top-label = Next character, its five likeliest:
text-char-loss = “{ $ch }”: { $loss } nats
text-first-char = The first character: nothing before it to predict it from.
text-strip-label = Each character shaded by the model's surprise (its loss in nats): darker is more surprised.
text-strip-csv = Surprise as CSV
text-map-explain = Row = the character that looks, column = the character it looks at; the last row (outlined) is the one that predicts the next character.
text-branches = The two softmax maps, A1 and A2
text-lambda-used = λ in this layer and head: { $lambda }
text-locality = The last character's row puts { $near_weight } of its weight on the last { $near } characters and { $far_weight } on the { $far } before them ({ $per_far } each on average): what stays on far characters is the noise floor differential attention is meant to cancel.
text-knob-ckpt = Training checkpoint
text-knob-layer = Layer
text-knob-head = Head
text-knob-lambda = DIFF V1's λ in this layer
text-knob-temp = Temperature (0 = greedy)
text-knob-topk = Top-k
text-knob-seed = Seed
text-ckpt-shown = { $index } of 5
text-lambda-learnt = learnt
text-lambda-reset = Back to the learnt λ
text-greedy = greedy
text-write-on = Write on
text-stop = Stop
text-write-explain = “Write on” lets each model continue the text one character at a time. The three draw the same random numbers, so where they differ it is the models that differ. Writing runs on the CPU core wherever the columns run: it keeps each model's keys and values and computes one new row per character.
text-results-title = How the three models do on plays they never read
text-results-caption = Loss on the held-out plays (Julius Caesar, Macbeth, The Comedy of Errors, The Tempest, Twelfth Night), with a classic n-gram model for reference
text-th-loss = nats per character, long context ({ $seeds ->
        [one] one seed
       *[other] mean ± SD over { $seeds } seeds
    })
text-th-bits = bits per character
text-th-versus = minus the baseline [95%: text and seeds]
text-th-text-alone = the text alone [95%: block bootstrap, seeds averaged]
text-verdict-better = { $model } predicts the held-out plays better than the baseline: { $diff } nats per character averaged over the seeds (each seed: { $seeds }), 95% interval [{ $low }, { $high }], counting both the text's and the training runs' variation.
text-verdict-worse = { $model } predicts the held-out plays worse than the baseline: { $diff } nats per character averaged over the seeds (each seed: { $seeds }), 95% interval [{ $low }, { $high }], counting both the text's and the training runs' variation.
text-verdict-same = { $model } is not measurably different from the baseline at this size: { $diff } nats per character averaged over the seeds (each seed: { $seeds }), 95% interval [{ $low }, { $high }], which includes zero.
note-text-link-long = The link's text was longer than { $max } characters; its last { $max } are kept.
ckpt-5-percent = 5% of training
ckpt-20-percent = 20% of training
ckpt-half-way = half-way
text-map-queries-marked = query i ↓ (0 … { $last }); the outlined row { $row } is the last character, whose row predicts the next one
text-grid-explain = Every head of every layer (each thumbnail on its own scale); the number is the weight the last character's row puts on the last { $near } characters. Click one to show it above.
text-thumb = Layer { $layer }, head { $head }: { $weight } of the last row's weight on the last { $near } characters
text-knob-v2-scale = DIFF V2: every λ times
text-knob-v2-pin = DIFF V2: every λ pinned to
text-v2-reset = DIFF V2: back to the learnt λ
text-gpu-no-model = the model is not loaded yet
text-results-method = Long-context loss: all { $characters } held-out characters after each play's first, each predicted with at least { $context } characters before it wherever its play allows, for { $seeds ->
        [one] one training seed
       *[other] { $seeds } training seeds
    } per model. Window loss: { $windows } non-overlapping windows of { $length } characters, each predicted from its own start (about 64 characters of context on average), as the curve uses. The interval of each difference: a paired bootstrap over { $blocks } blocks of { $block } characters (neighbouring characters' losses are correlated, so they are resampled in blocks, not one by one), combined with the spread across the seeds.
play-twelfth-night = Twelfth Night
play-the-tempest = The Tempest
play-the-comedy-of-errors = The Comedy of Errors
play-macbeth = Macbeth
play-julius-caesar = Julius Caesar
text-results-old = This evaluation file predates the seeds and the long-context loss; run difflens-trainer text-eval again.
text-th-play-versus = { $model } − baseline
text-th-play = play
text-per-play-caption = Long-context loss per held-out play (nats per character; { $seeds ->
        [one] one seed
       *[other] transformers averaged over { $seeds } seeds
    }), and each DIFF model minus the baseline
text-ngram-behind = A classic Kneser–Ney { $order }-gram, counted from the same training text in { $seconds } s, reaches { $loss } nats per character: the best transformer is { $gap } below it, though the n-gram is still lower { $share ->
        [100] on every one of the text's blocks.
       *[other] on at least { $share }% of the text's blocks against each of them.
    }
text-ngram-ahead = A classic character model does better than all three: a Kneser–Ney { $order }-gram, counted from the same training text in { $seconds } s, reaches { $loss } nats per character, { $gap } below the best transformer, and is lower { $share ->
        [100] on every one of the text's blocks against each of them.
       *[other] on at least { $share }% of the text's blocks against each of them.
    } These transformers are small and read the training text less than once; at this size and budget counting still wins, and what the page can compare is the three attention variants with one another, not with the state of the art.
text-ngram-no-seed = (no seed: counted, not trained)
text-ngram-name = Kneser–Ney { $order }-gram
text-verdict-one-seed = Only one training run per model has been evaluated, so these intervals count the text's variation but not the seeds'.
text-th-window = window loss, seed 1
text-th-seeds = each seed
text-own-title = Read it with your own model
text-own-explain = A model you trained on the training page (“Keep the trained models”: its weights and its config), or any model of the same alphabet, takes the column of its kind, here and now: both files are read in this page and never sent anywhere.
text-own-choose = Choose both files:{" "}
text-own-vocab = This model reads { $model } symbols, and the text models' alphabet has { $vocab }: it was trained on other symbols (a needle model, say), so it cannot read this text.
text-own-loaded = { $kind }'s column now shows your model ({ $label }).
text-own-column = { $kind }: your model
text-own-cpu = your own model runs on the CPU core
text-own-note = The column marked “your model” shows { $label }; the evaluation below is of the shipped models.

## Said through the live region (issue 45)
text-said-guess = { $model } “{ $ch }” ({ $p })
text-said-next = Next character: { $guesses }.
text-said-writing = The three models are writing on.
text-said-wrote = { $model } wrote: { $text }
