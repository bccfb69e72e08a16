# Comparison with the published numbers.
