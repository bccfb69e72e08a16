/*
 * Weka's IBk (LinearNNSearch, EuclideanDistance, no distance weighting) for a batch of
 * instances, on plain arrays: the same arithmetic as Weka 3.6's NormalizableDistance,
 * LinearNNSearch and IBk.makeDistribution, without a virtual call per attribute.
 *
 * Compiled in this folder with `javac --release 11 -g:none -d classes NearestNeighbours.java`
 * (OpenJDK 17's javac; tests/reproduction/test_models_weka_ibk.py checks the class is this
 * source). The Python side (models/weka_ibk.py) uses it only for an IBk with Weka's defaults
 * but -K, and passes Weka's own ranges array, which each query row widens as in Weka.
 */
package threshold_choice;

public final class NearestNeighbours {

    private NearestNeighbours() {
    }

    private static final int NUMERIC = 0;   // weka.core.Attribute.NUMERIC
    private static final int NOMINAL = 1;   // weka.core.Attribute.NOMINAL

    /** Weka's NormalizableDistance.norm with the attribute's current range. */
    private static double norm(double x, double[] range) {
        if (Double.isNaN(range[0]) || range[1] == range[0]) {
            return 0;
        }
        return (x - range[0]) / range[2];
    }

    /** NormalizableDistance.updateRanges(Instance, double[][]) for one row. */
    private static boolean widen(double[] row, double[][] ranges) {
        boolean changed = false;
        for (int j = 0; j < ranges.length; j++) {
            double value = row[j];
            if (Double.isNaN(value)) {
                continue;
            }
            double[] r = ranges[j];
            if (value < r[0]) {
                r[0] = value;
                r[2] = r[1] - r[0];
                changed = true;
            } else if (value > r[1]) {
                r[1] = value;
                r[2] = r[1] - r[0];
                changed = true;
            }
        }
        return changed;
    }

    /**
     * IBk.distributionForInstance of each query row, in order.
     *
     * @param train       training rows, row-major, numAttributes values each (NaN = missing),
     *                    in the order of the search's instances
     * @param trainClass  each training row's class index
     * @param types       each attribute's Weka type (the class attribute's is ignored)
     * @param classIndex  the class attribute
     * @param ranges      the distance function's own ranges array (min, max, width per
     *                    attribute): widened in place by each query row, as Weka does
     * @param queries     query rows, row-major, numAttributes values each
     * @param k           IBk's -K
     * @param numClasses  number of class values
     * @return the distributions, row-major, numClasses values each
     */
    public static double[] distributions(double[] train, int[] trainClass, int[] types,
                                         int classIndex, double[][] ranges, double[] queries,
                                         int k, int numClasses) {
        final int na = types.length;
        final int n = trainClass.length;
        final int m = queries.length / na;
        // The attributes the distance reads, in Weka's order: the class and any type other
        // than numeric or nominal add 0.
        int count = 0;
        for (int j = 0; j < na; j++) {
            if (j != classIndex && (types[j] == NUMERIC || types[j] == NOMINAL)) {
                count++;
            }
        }
        final int[] used = new int[count];
        final boolean[] numeric = new boolean[count];
        count = 0;
        for (int j = 0; j < na; j++) {
            if (j != classIndex && (types[j] == NUMERIC || types[j] == NOMINAL)) {
                numeric[count] = types[j] == NUMERIC;
                used[count++] = j;
            }
        }
        final int d = used.length;
        // training values by attribute used, row-major: numeric ones normalised with the
        // current ranges (again when a query widens a range), nominal ones as they are
        final double[] raw = new double[n * d];
        final double[] value = new double[n * d];
        final boolean[] rowMissing = new boolean[n];
        for (int i = 0; i < n; i++) {
            for (int a = 0; a < d; a++) {
                double x = train[i * na + used[a]];
                raw[i * d + a] = x;
                value[i * d + a] = x;
                rowMissing[i] |= Double.isNaN(x);
            }
        }
        final double[][] normedWith = new double[d][];  // the range each column was normed with
        final double[] query = new double[na];
        final double[] qNormed = new double[d];
        final double[] qValue = new double[d];
        final double[] out = new double[m * numClasses];
        final double[] heapDistance = new double[Math.max(k, 1)];
        final int[] heapClass = new int[Math.max(k, 1)];
        final int[] tied = new int[numClasses];
        final int[] votes = new int[numClasses];
        final double start = 1.0 / Math.max(1, n);
        final double startTotal = (double) numClasses / Math.max(1, n);

        for (int q = 0; q < m; q++) {
            System.arraycopy(queries, q * na, query, 0, na);
            widen(query, ranges);  // IBk: addInstanceInfo before the search
            for (int a = 0; a < d; a++) {
                if (!numeric[a]) {
                    continue;
                }
                double[] r = ranges[used[a]];
                double[] before = normedWith[a];
                if (before == null || before[0] != r[0] || before[1] != r[1]
                        || before[2] != r[2]) {
                    for (int i = 0; i < n; i++) {
                        value[i * d + a] = norm(raw[i * d + a], r);
                    }
                    normedWith[a] = r.clone();
                }
                qNormed[a] = norm(query[used[a]], r);
            }
            boolean queryMissing = false;
            for (int a = 0; a < d; a++) {
                double x = query[used[a]];
                queryMissing |= Double.isNaN(x);
                qValue[a] = numeric[a] ? qNormed[a] : x;
            }

            // LinearNNSearch.kNearestNeighbours: the k nearest (squared distances) in a
            // max-heap, and the rows tied with the k-th, counted by class. Weka's partial
            // sums only grow, so stopping once one exceeds the k-th keeps the same rows.
            int size = 0;
            java.util.Arrays.fill(tied, 0);
            for (int i = 0; i < n; i++) {
                double cutoff = size < k ? Double.POSITIVE_INFINITY : heapDistance[0];
                double s = 0;
                int base = i * d;
                if (!queryMissing && !rowMissing[i]) {
                    for (int a = 0; a < d; a++) {
                        double diff = numeric[a] ? qValue[a] - value[base + a]
                                : (qValue[a] != value[base + a] ? 1 : 0);
                        s = s + diff * diff;
                        if (s > cutoff) {
                            s = Double.POSITIVE_INFINITY;
                            break;
                        }
                    }
                } else {
                    s = withMissing(query, used, numeric, raw, value, qNormed, base, d, cutoff);
                }
                int c = trainClass[i];
                if (size < k) {
                    siftUp(heapDistance, heapClass, size++, s, c);
                } else if (s < heapDistance[0]) {
                    double outDistance = heapDistance[0];
                    int outClass = heapClass[0];
                    replaceTop(heapDistance, heapClass, size, s, c);
                    if (outDistance == heapDistance[0]) {
                        tied[outClass]++;
                    } else {
                        java.util.Arrays.fill(tied, 0);
                    }
                } else if (s == heapDistance[0]) {
                    tied[c]++;
                }
            }

            // IBk.makeDistribution: 1/n per class, plus 1 per neighbour, normalised
            java.util.Arrays.fill(votes, 0);
            for (int h = 0; h < size; h++) {
                votes[heapClass[h]]++;
            }
            double total = startTotal;
            int o = q * numClasses;
            for (int c = 0; c < numClasses; c++) {
                double p = start;
                int v = votes[c] + tied[c];
                for (int t = 0; t < v; t++) {
                    p += 1.0;
                    total += 1.0;
                }
                out[o + c] = p;
            }
            if (total > 0) {
                for (int c = 0; c < numClasses; c++) {
                    out[o + c] /= total;
                }
            }
        }
        return out;
    }

    /** The squared distance when either row has a missing value (Weka's difference()). */
    private static double withMissing(double[] query, int[] used, boolean[] numeric,
                                      double[] raw, double[] value, double[] qNormed, int base,
                                      int d, double cutoff) {
        double s = 0;
        for (int a = 0; a < d; a++) {
            double x = query[used[a]];
            double y = raw[base + a];
            double diff;
            if (!numeric[a]) {
                diff = (Double.isNaN(x) || Double.isNaN(y) || (int) x != (int) y) ? 1 : 0;
            } else if (Double.isNaN(x) || Double.isNaN(y)) {
                if (Double.isNaN(x) && Double.isNaN(y)) {
                    diff = 1;
                } else {
                    diff = Double.isNaN(y) ? qNormed[a] : value[base + a];
                    if (diff < 0.5) {
                        diff = 1.0 - diff;
                    }
                }
            } else {
                diff = qNormed[a] - value[base + a];
            }
            s = s + diff * diff;
            if (s > cutoff) {
                return Double.POSITIVE_INFINITY;
            }
        }
        return s;
    }

    private static void siftUp(double[] dist, int[] cls, int at, double s, int c) {
        while (at > 0) {
            int parent = (at - 1) / 2;
            if (dist[parent] >= s) {
                break;
            }
            dist[at] = dist[parent];
            cls[at] = cls[parent];
            at = parent;
        }
        dist[at] = s;
        cls[at] = c;
    }

    private static void replaceTop(double[] dist, int[] cls, int size, double s, int c) {
        int at = 0;
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && dist[child + 1] > dist[child]) {
                child++;
            }
            if (dist[child] <= s) {
                break;
            }
            dist[at] = dist[child];
            cls[at] = cls[child];
            at = child;
        }
        dist[at] = s;
        cls[at] = c;
    }
}
