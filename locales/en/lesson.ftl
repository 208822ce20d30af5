# The guided lesson (#/learn): each step's title and paragraphs.
# [[key]] or [[key|shown words]] links a term of the glossary (glossary.ftl).

step-softmax-title = Softmax never gives exactly zero
step-softmax-p1 = Attention decides how much each earlier token (a key) matters to the token being computed (the query). It scores every key, and [[softmax]] turns the scores ([[logit|logits]]) into weights: exponentiate each one, divide by the total, so a row of weights adds up to 1.
step-softmax-p2 = An exponential is never zero. Every key, however irrelevant, keeps a little weight. The chart shows one query: a few keys truly match it (red dots), all the others get random scores. Drag the noise σ and watch the floor under the red dots rise.

step-length-title = The noise floor adds up with length
step-length-p1 = Each noise key gets almost nothing, but a long context holds very many of them. A weight of 0.0001% per key over 128 000 keys is 12.8% of the row. (A figure often quoted, 0.001%, would give 128%: impossible, since a row of softmax weights adds up to 1.)
step-length-p2 = The chart keeps the same kind of query (the same signal, the same noise) and grows the context, doubling each time. The signal keys do not multiply; the noise keys do, and they take more and more of the weight.

step-two-maps-title = A second map that sees the same noise
step-two-maps-p1 = Differential attention computes two attention maps, A1 and A2, from the same tokens, each an ordinary softmax map with its own queries (DIFF V1 also gives each its own keys; in DIFF V2 the two share their keys and values).
step-two-maps-p2 = In this lab A2 sees no signal, only noise, and part of its noise is the same as A1's: the “shared” slider sets how much. A trained model learns this split; here you set it. With most of the noise shared, the speckle of A1 and A2 looks alike; slide it down and they part ways.

step-subtract-title = Subtract: A1 − λ·A2
step-subtract-p1 = Now take A1 and subtract a multiple [[lambda|λ]] of A2. Where both maps carry the same noise it cancels and the map turns white; the signal columns, which only A1 has, stay red.
step-subtract-p2 = Each row of A1 and of A2 adds up to 1, so each row of the difference adds up to 1 − λ. Weights can now be negative (blue): a negative weight subtracts that token's value instead of adding it. At λ = 0 the difference is A1 itself.

step-lambda-title = Choosing λ
step-lambda-p1 = How much should be subtracted? The chart sweeps λ and plots the [[snr|signal-to-noise ratio]] of A1 − λ·A2. A little λ cancels shared noise; too much subtracts more noise than A1 had, and the noise comes back with the opposite sign (the blue of the previous step's map).
step-lambda-p2 = A trained model learns its λ. DIFF V1 learns one per layer, starting from [[lambda_init|λ_init]] = 0.8 − 0.6·e^(−0.3·depth) (depth counted from 0): small in the first layers, close to 0.8 deep in the model. DIFF V2 computes a λ for every token and head, between 0 and 1.

step-failure-title = When it fails: noise that is not shared
step-failure-p1 = Subtraction cancels only what the two maps have in common. Drag “shared” down: A2's noise becomes independent of A1's, and subtracting it adds new noise instead of removing the old. Even the best λ then helps little.
step-failure-p2 = That is why both maps are computed from the same input in the same layer and trained together: the model learns to put the same noise into both.

step-cost-title = What the second map costs
step-cost-p1 = DIFF V1 keeps the baseline's parameter count by halving the number of heads: each differential head has two query–key pairs and a value twice as wide. Its [[kv_cache|KV cache]] stores as much as the baseline's, but its kernels read the value cache once per map.
step-cost-p2 = DIFF V2 doubles the query heads instead (more parameters in the query projection), keeps the key and value heads, and reads the cache once: decoding costs what the baseline's does, also with grouped keys and values ([[gqa|GQA]]). Both keep the rest of the block: [[rmsnorm|RMSNorm]] and a [[swiglu|SwiGLU]] feed-forward layer.

step-models-title = Trained models: which one finds the needle?
step-models-p1 = We trained three tiny models on the same task: a context of filler words hides a few [[needle|needles]] (“KEY is VALUE .”), and a question at the end (“? KEY →”) asks for one key's value. One is a baseline Transformer, one DIFF V1, one DIFF V2.
step-models-p2 = The same prompt runs through all three, here in your browser. Each map is the model's last layer, the head that puts the most weight on the asked needle, in the map that multiplies the values (A1 − λ·A2 for the DIFF models).

step-paper-title = What the paper measured, and what our toy shows
step-paper-p1 = The paper trained models of three billion parameters on real text. On needle retrieval, the DIFF Transformer put far more attention on the answer and far less on the context than the baseline; its largest attention logits were much smaller, so they survive being stored in few bits.
step-paper-p2 = Our models are tiny and trained for minutes on a toy task, so do not expect the same numbers. The table puts both side by side, ours computed on the prompt of the previous step. Where our models disagree with the paper, we show it as it is.
step-real-text-title = Your own text: three language models side by side
step-real-text-p1 = Every model so far read a made-up vocabulary. These three read characters: a baseline Transformer, DIFF V1 and DIFF V2, trained the same way on Shakespeare's plays and run here on a line from Macbeth, a play they never saw in training.
step-real-text-p2 = On real text most of a character's weight stays on the few characters just before it, and the rest spreads thin over everything further back: the noise floor of the first step, now on words. At this size DIFF does not clearly lower the loss on the plays held out from training, and a classic counting model (a Kneser–Ney n-gram) predicts them better than all three: models this small, trained this briefly, are far from what the architecture can do (the text page shows every training seed's numbers with their intervals). Open the text page and type a sentence of your own.

# The lesson page around the steps.
lesson-steps = Steps of the lesson
lesson-step-count = Step { $k } of { $n }
lesson-previous = ← Previous
lesson-next = Next →
lesson-keys = Keys: ← and → (or Page Up and Page Down) move between steps.
lesson-open-lab = Open this in the lab
lesson-open-arch = Open the architecture calculator
lesson-open-explorer = Open the model explorer
lesson-open-text = Open the text page
lesson-open-train = Train them yourself
lesson-glossary = Glossary
lesson-glossary-link = (glossary)
lesson-sources = Sources
source-paper = Ye et al., “Differential Transformer”, ICLR 2025 (arXiv 2410.05258)
source-v2 = DIFF Transformer V2 write-up, January 2026
source-code = The official code: microsoft/unilm, Diff-Transformer
paper-figure8 = With attention logits quantised to 4 bits, DIFF is about as accurate as the Transformer at 6 bits and about 25% better than the Transformer at 4 bits.
term-colon = :{" "}
