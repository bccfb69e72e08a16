# Comparison with the published numbers.


def comparison_outputs():
    return []
