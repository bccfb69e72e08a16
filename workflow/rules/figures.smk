# Figures 1-9 of the paper (PNG and PDF, with their data as CSV).
