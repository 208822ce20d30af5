# What the engine says: where numbers were computed, the λ captions, a row's caption,
# the checkpoints' names, and what is wrong with a model file or a prompt.

why-chosen = you chose the CPU core
why-no-webgpu = this browser has no WebGPU
why-asking = the browser has not yet said which WebGPU adapter it has
why-bits = { $bits }-bit attention logits are computed on the CPU core only
why-software = the WebGPU adapter ({ $adapter }) is a software renderer, slower here than the CPU core; choose WebGPU to use it anyway
why-fell-back = WebGPU failed ({ $error }), so the CPU core took over
why-this-page = this page runs its models on the CPU core
gpu-gone = the GPU is gone
short-cpu = the CPU core
short-cpu-worker = the CPU core in background workers
computed-gpu = Computed on WebGPU ({ $adapter }).
computed-cpu = Computed on the CPU core (WebAssembly): { $why }.
computed-cpu-worker = Computed on the CPU core (WebAssembly, in a background worker, so the page stays responsive): { $why }.

card-invalid = the model card is not valid: { $error }
card-empty = the model card lists no checkpoints
not-text = { $name } is not a text file
config-too-big = { $name }: { $field } = { $value } is more than this page runs (at most { $max })
one-word = choose one word from the list
no-word-at = there is no word at position { $position } to replace

row-net = This row puts a net weight of { $needle } on the asked needle and { $rest } on the rest of the context.
row-total = {" "}Its weights add up to { $total } (1 − λ, not 1).
row-total-range = {" "}Its weights add up to { $total } (1 − λ, not 1) and run from { $min } to { $max }: a negative weight subtracts that token's value.

lambda-yours = λ of layer { $layer } = { $lambda }, set by you: { $what ->
        [zero] so A1 − λ·A2 is A1 alone: softmax attention of branch 1
        [negative] negative, so A1 − λ·A2 adds the second map instead of subtracting it
       *[positive] one for all heads
    }. “Back to the learnt λ” restores the model's own.
lambda-learnt-negative = λ of layer { $layer } = { $lambda }, learnt: negative, so A1 − λ·A2 adds the second map instead of subtracting it; this layer spreads weight over the context.
lambda-learnt = λ of layer { $layer } = { $lambda }, learnt, one for all heads.
lambda-pinned = λ of layer { $layer } pinned by you to { $lambda } for every token and head.
lambda-pinned-zero = λ of layer { $layer } pinned by you to { $lambda } for every token and head: A1 − λ·A2 is A1 alone, softmax attention of branch 1.
lambda-scaled = λ of layer { $layer } at “→”, per head: the learnt per-token λ × { $factor } (your scale): { $values }.
lambda-per-token = λ of layer { $layer } at “→”, per head (V2 computes one per token): { $values }.
lambda-none = No λ: standard softmax attention subtracts nothing.

checkpoint-step = { $percent }% (step { $step })
checkpoint-labelled = { $label }: step { $step } ({ $percent }%)
ckpt-untrained = untrained
ckpt-warm-up-half = copy warm-up, half-way
ckpt-after-warm-up = after the copy warm-up
ckpt-retrieval-20 = retrieval, 20%
ckpt-trained = fully trained

# The explorer's link notices.
note-v1-lambda-key = v1_lambda (layer { $layer })
note-v1-lambda-nan = v1_lambda (layer { $layer }) = { $raw } is not a number; layer { $layer } keeps its learnt λ
note-model = model={ $raw } is not one of { $all }; showing { $kind }
note-ctx = ctx={ $raw } is not offered; using { $context }
note-view = view={ $raw } is not compare or single; showing { $view }
note-on = on={ $raw } is not auto, gpu or cpu; using auto
note-prompt = the prompt in the link was not used ({ $error }); showing a generated one
note-v1-norm = v1_norm={ $raw } is not on or off; kept on
note-bits = bits={ $raw } is not one of 32, 8, 6, 4; using 32 (f32)
note-queries = r={ $queries } queries need as many needles (n={ $needles }); set to { $needles }
note-pick = head { $head } does not exist in { $kind }; showing its best head
note-layer-head = layer { $layer } / head { $head } do not exist in this model; showing layer { $shown_layer }, head { $shown_head }
note-row-prompt = row { $row } is beyond this prompt's { $tokens } tokens; showing the “→” row

# Editing the prompt by clicks.
edit-no-needle = there is no needle { $k }
edit-asked = a query asks for “{ $words }”: remove that query first
edit-asked-already = “{ $words }” is asked about already
edit-no-query = there is no query { $k }
edit-last-query = the prompt needs a query: add another before removing this one

# A layer's file and its x.
file-no-layer-under = { $name } holds no layer under “{ $prefix }” (it holds { $all })
file-no-layer = { $name } holds no attention layer: no tensor is named …q_proj.weight
file-projection-shape = { $name }: { $tensor } has shape { $shape }; a projection weight is [out, in]
file-not-f32 = { $name }: { $tensor } could not be read as f32
file-heads-width = { $error } (from { $heads } heads and the layer's width { $width })
file-x-shape = { $name }: `x` has shape { $shape }; the page runs one sequence: [T, E] or [1, T, E]
file-x-width = { $name }: `x` is { $wide } wide but the layer takes { $width }
file-x-empty = { $name }: `x` has no tokens
file-x-long = { $name }: `x` has { $tokens } tokens; the page shows at most { $max }

# Loading the shipped models, and the developers' GPU checks.
card-too-few = models/{ $kind }/card.json lists { $count } checkpoints, not { $wanted }
gpu-forward-failed = WebGPU forward failed: { $error }
gpu-forward-compared = WebGPU forward in { $ms } ms: largest |GPU − CPU| logits { $logits } (tolerance { $logits_tolerance }), layer { $layer } head { $head } map { $map } ({ $map_tolerance }).
lab-verified = largest |GPU − CPU|: A1 { $a1 }, A2 { $a2 }, pooled A1 − λ·A2 { $diff }; SNR relative difference { $snr }. Tolerance { $tolerance } on maps.
lab-verified-other = The other row layout ({ $layout }): A1 { $a1 }, A2 { $a2 }, A1 − λ·A2 pooled { $diff }.
lab-verified-other-failed = The other row layout ({ $layout }) could not run: { $error }.
lab-layout-workgroup = one workgroup per row, vec4 loads
lab-layout-invocation = one invocation per row
lab-runs-on-cpu = This problem runs on the CPU: { $error }.

# A weights file's problems (the core's errors, said in the language on screen).
weights-format = { $detail }
weights-missing = tensor `{ $name }` is missing (expected shape { $expected })
weights-shape = tensor `{ $name }` has shape { $found }, expected { $expected }
weights-dtype = tensor `{ $name }` has dtype { $dtype }; DiffLens reads F32, F16 and BF16
weights-non-finite = tensor `{ $name }` holds a NaN or an infinity
weights-absent = there is no tensor `{ $name }` (the file holds { $held })
weights-config = model config: { $detail }
