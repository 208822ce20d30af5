# The lesson's glossary: each term's name and definition.

term-softmax-name = softmax
term-softmax-definition = Turns a row of scores into weights that are all positive and add up to 1: each score is exponentiated, then divided by the sum. Large scores get most of the weight, but no score gets exactly zero.

term-logit-name = logit
term-logit-definition = A score before the softmax. In attention: the dot product of a query with a key, divided by the square root of the head size.

term-snr-name = SNR (signal-to-noise ratio)
term-snr-definition = As the lab defines it: the mean weight on a signal key divided by the mean absolute weight on a noise key, over all queries. Absolute, because a negative weight still mixes a value in. For a softmax map it is simply how many times more weight a true match gets than an average other key.

term-lambda-name = λ (lambda)
term-lambda-definition = How much of the second map is subtracted: A1 − λ·A2. DIFF V1 learns one λ per layer, shared by its heads, and does not clamp it (it can be negative or above 1); DIFF V2 computes one per token and head with a sigmoid, so it lies between 0 and 1.

term-lambda_init-name = λ_init
term-lambda_init-definition = DIFF V1's starting value for λ in the layer at a given depth (counted from 0): 0.8 − 0.6·e^(−0.3·depth). V1 also multiplies each head's output by the constant 1 − λ_init. V2 has no λ_init.

term-needle-name = needle
term-needle-definition = A fact hidden in a long context that a question later asks about. Here a needle is the four tokens “KEY is VALUE .”, and the question “? KEY →” must be answered with VALUE.

term-gqa-name = GQA (grouped-query attention)
term-gqa-definition = Several query heads share one key head and one value head, so the KV cache is smaller. DIFF V2 requires both heads of a subtracted pair to share one key-value group.

term-kv_cache-name = KV cache
term-kv_cache-definition = While generating text, a model keeps every earlier token's keys and values so it need not recompute them. Its size, and how much of it is read per new token, set the speed of decoding.

term-swiglu-name = SwiGLU
term-swiglu-definition = The feed-forward layer of LLaMA-style blocks: (swish(x·W_g) ⊙ x·W_1)·W_2, a gated variant of the two-layer perceptron.

term-rmsnorm-name = RMSNorm
term-rmsnorm-definition = Divides a vector by the root of the mean of its squares (plus a small ε), then multiplies by a learnt gain. DIFF V1 also applies one to each head's output.
