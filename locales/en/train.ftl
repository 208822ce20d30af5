# The training page: the three kinds trained in the browser, with seeds.
page-train = Train them yourself
train-intro = Train a baseline Transformer, DIFF V1 and DIFF V2 here, in your browser, on the same data with the same batches in the same order, and watch them learn. Each seed starts the three models from the same weights wherever their shapes agree (the needle task starts each from its own shipped warm-up weights); more seeds show how much of a difference is only training noise.
train-setup = What to train
train-task = What they learn
train-task-plays = Shakespeare: three training plays (333 k characters), held out: the start of The Comedy of Errors
train-task-pasted = Text you paste (its last tenth is held out)
train-paste-label = Your text (at least a few hundred characters; only characters the Shakespeare models know)
train-size = Size
train-size-name = { $size ->
    [small] Small: learns visibly within a minute
    [medium] Medium: a few minutes
   *[large] Large: for patient people
}
train-size-note = width { $dim }, { $layers } layers, { $context } characters at a time, { $batch } windows a step, { $steps } steps
train-models = Models
train-seeds = Seeds
train-start = Train
train-pause = Pause
train-resume = Resume
train-stop = Stop
train-loading = Loading the training text…
train-not-text = { $file } is not a text file.
train-too-short = The text is too short: { $have } characters, and this size needs at least { $need } (two windows to learn from and two held out).
train-unknown-chars = The models' alphabet (the Shakespeare models') has no { $chars }: replace or remove these characters.
train-held-out-part = The last { $chars } characters are held out for the held-out loss; the runs learn from the { $train } before them.
train-idle = Press Train to start. Nothing is sent anywhere: everything runs in this browser.
train-running = Training.
train-starting = Starting: the untrained models are evaluated first (the first time, the training workers also fetch their code, about 300 KB).
train-pausing = Pausing: the steps under way finish first.
train-paused = Paused.
train-stopped = Stopped: what the models learnt so far stays below and can be kept.
train-done = Done.
train-progress = Step { $done } of { $total } over all runs; { $chars } characters per second.
train-progress-start = Step 0 of { $total } over all runs.
train-left = About { $left } s left.
train-failed-runs = { $count } run(s) stopped early (below).
train-others-go-on = The others go on.
train-all-failed = Every run stopped early (below), so nothing more is trained in this session.
train-run-name = { $kind }, seed { $seed }
train-not-finite = { $run } stopped at step { $step }: its loss was not a finite number (the learning rate is too high for it).
train-worker-failed = { $run } stopped: { $why }.
train-where = Each run (model × seed) trains in a background worker on this computer's processor, a chunk of steps at a time, so the page stays responsive; in a tab in the background it keeps training, more slowly. Leaving the page stops it.
train-now = { $kind }: held-out loss { $first } untrained, { $last } at step { $step } ({ $unit }; lower is better)
train-chart-empty = The curves appear once training has run a few steps.
train-x-step = training step
train-y-loss = loss ({ $unit })
train-loss-title = Training loss
train-loss-explain = The loss on each step's batch, averaged over the last { $smooth } steps. { $band ->
    [yes] A solid line is a model's mean over its seeds; the dashed lines either side are its best and worst seed: where two models' bands overlap, the seeds cannot tell them apart.
   *[no] One seed: each line is one training run, and nothing shows how much another seed would move it.
}
train-held-out-title = Held-out loss
train-held-out-explain = The loss on text the models never learn from (16 fixed windows), at each evaluation: what generalises. { $band ->
    [yes] Mean over seeds, best and worst seed dashed.
   *[no] One seed: one run per model.
}
train-lambda-title = λ per layer
train-lambda-explain = DIFF V1's λ (one per layer) and DIFF V2's (one per token and head; its mean), averaged over seeds, as training moves them.
train-lambda-series = { $kind }, layer { $layer }
train-maps-title = Where the attention goes, as it learns
train-maps-explain = Seed 1's head 0 on a fixed piece of held-out text: row = the character that looks, column = the character it looks at. While training runs the maps show the latest evaluation; afterwards the scrubber goes back to any of them.
train-probe = The probe: “{ $text }”
train-layer = Layer
train-scrub = Evaluation
train-latest = Latest
train-maps-step = step { $step }
train-map-baseline = { $kind }: its attention map
train-map-a1 = { $kind }: A1
train-map-a2 = { $kind }: A2
train-map-diff = { $kind }: A1 − λ·A2
train-verdict-title = What the numbers support
train-verdict-explain = Final held-out loss on every held-out window (lower is better). Each DIFF model is compared with the baseline of the same seed: the mean difference (each seed's in brackets), its 95% interval over seeds (Student's t: training noise) and over blocks of eight held-out windows resampled (a paired bootstrap: data noise). A difference is claimed only where both intervals leave zero out.
train-col-model = Model
train-col-final = Held-out loss, mean
train-col-seeds = Each seed
train-col-diff = Minus the baseline
train-col-seed-interval = 95% over seeds
train-col-block-interval = 95% over held-out blocks
train-verdict-one-seed = { $kind } − baseline = { $diff } { $unit } with one seed: the held-out blocks alone give { $blocks }, but one seed cannot tell training noise from a difference. Train with 3 seeds to find out.
train-verdict-same = { $kind } is not distinguishable from the baseline with { $n } seeds (difference { $diff } { $unit }; an interval holds zero).
train-verdict-better = { $kind } has a lower held-out loss than the baseline by { $diff } { $unit }, with { $n } seeds and across held-out blocks.
train-verdict-worse = { $kind } has a higher held-out loss than the baseline by { $diff } { $unit }, with { $n } seeds and across held-out blocks.
train-keep-title = Keep the trained models
train-keep-explain = Each run's weights as they are now, with the config the model explorer's “your own checkpoint” reads, and a card saying how it was trained.
train-keep-run = { $kind }, seed { $seed }, step { $step }:
train-save-weights = weights (.safetensors)
train-save-config = config (.json)
train-save-card = card (.md)
train-curves-csv = Curves as CSV
note-train-task = task={ $raw } is not plays, pasted or needle; training on the plays
note-train-size = size={ $raw } is not one of { $all }; training the small size
note-train-model = models: { $raw } is not a model (baseline, diff_v1, diff_v2); left out
note-train-no-model = models names no model; training all three
train-task-needle = Needle retrieval: the shipped needle models, fine-tuned from their copy warm-up
train-needle-note = The shipped needle models' own size (width 64, 3 layers), each starting from its checkpoint { $checkpoint }, taken after its copy warm-up: it can copy words, and has never been asked about a needle. Each of { $steps } steps shows it { $batch } new prompts of 1 to 6 needles (the needles not asked about are distractors), and the loss counts the answers only. A seed changes the prompts and their order, not the starting weights.
train-progress-needle = Step { $done } of { $total } over all runs; { $prompts } prompts per second.
train-unit-text = nats per character
train-unit-needle = nats per answer
train-now-accuracy = Retrieval accuracy { $first } % at the start, { $last } % now.
train-held-out-explain-needle = The loss on 32 fixed prompts the models never learn from, counted on their answers, at each evaluation. { $band ->
    [yes] Mean over seeds, best and worst seed dashed.
   *[no] One seed: one run per model.
}
train-accuracy-title = Retrieval accuracy
train-accuracy-explain = The share of the 32 held-out questions whose most likely next word is the value of the needle asked about, at each evaluation. { $band ->
    [yes] Mean over seeds, best and worst seed dashed.
   *[no] One seed: one run per model.
}
train-y-accuracy = accuracy (%)
train-maps-explain-needle = Seed 1's head 0 on a fixed prompt of four needles and one question about the first: row = the word that looks, column = the word it looks at. A head that retrieves puts the “→” row's weight on the needle asked about; watch whether one forms, and where. While training runs the maps show the latest evaluation; afterwards the scrubber goes back to any of them.
train-verdict-explain-needle = Final held-out loss on all 128 held-out prompts, counted on their answers (lower is better). Each DIFF model is compared with the baseline of the same seed: the mean difference (each seed's in brackets), its 95% interval over seeds (Student's t: training noise) and over blocks of eight held-out prompts resampled (a paired bootstrap: data noise). A difference is claimed only where both intervals leave zero out.
