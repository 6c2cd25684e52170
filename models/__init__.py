"""CP-SAT and SAT encodings, one module per puzzle, each a plain function from a Board (and
options) to a model. Models know nothing of the CLI or of the solvers that run them."""
