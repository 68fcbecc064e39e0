"""Training the dice reader's networks (needs the `train` extra: torch, onnx). Never imported by the app."""
