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
