# The draws of the authors' script after a split (the loop of Uncertainty/experiments_binomial_v72.R
# of ceferra/ThresholdChoiceMethods, without the models), on a grid of km points:
#   Rscript authors_draws.R ITERATION N_TRAIN N_TEST GAMMA KM
# Lines "R u": the Random model's scores; "im chat su j": model, c_hat, score-uniform's runif(1)
# and rate-uniform's sample(1:(N_TEST + 1), 1), per grid point. The split itself is
# replaced by as many uniforms as it takes (2 N_TRAIN + N_TEST).
suppressWarnings(RNGkind(sample.kind = "Rounding"))
args <- commandArgs(trailingOnly = TRUE)
iter <- as.integer(args[1]); ntr <- as.integer(args[2]); nte <- as.integer(args[3])
g <- if (args[4] == "Inf") Inf else as.integer(args[4]); km <- as.integer(args[5])
set.seed(iter); invisible(runif(2 * ntr + nte))
for (im in 1:12) {
  if (im == 12) { cat(sprintf("R %.17g\n", c(runif(ntr), runif(nte))), sep = "") }
  for (it in 1:km) {
    creal <- it / km
    if (g < Inf) {
      if (g == 0) chat <- runif(1, 0, 1)
      else { alpha <- g * creal + 1; beta <- g - alpha + 2; chat <- rbeta(1, alpha, beta) }
    } else chat <- creal
    su <- runif(1); j <- sample(1:(nte + 1), 1)
    cat(sprintf("%d %.17g %.17g %d\n", im, chat, su, j))
  }
}
