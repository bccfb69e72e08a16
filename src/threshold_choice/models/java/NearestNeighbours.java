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
        if (k <= 0) {
            throw new IllegalArgumentException("k must be at least 1");
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
        final double[] hd = new double[Math.max(k, 1) + 1];
        final int[] hc = new int[Math.max(k, 1) + 1];
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

            // LinearNNSearch.kNearestNeighbours with NearestNeighbourSearch.MyHeap's own
            // operations (1-based heap, the same comparisons: a NaN distance, from an
            // infinite value or a range too wide for a double, goes where Weka puts it)
            int size = 0;
            int seen = 0;
            java.util.Arrays.fill(tied, 0);
            for (int i = 0; i < n; i++) {
                double cutoff = seen < k ? Double.POSITIVE_INFINITY : hd[1];
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
                if (seen < k) {
                    size = put(hd, hc, size, s, c);
                    seen++;
                } else if (s < hd[1]) {
                    double outDistance = hd[1];
                    int outClass = hc[1];
                    // get(): the last element to the root, then downheap
                    hd[1] = hd[size];
                    hc[1] = hc[size];
                    size--;
                    downheap(hd, hc, size);
                    size = put(hd, hc, size, s, c);
                    if (outDistance == hd[1]) {
                        tied[outClass]++;
                    } else if (outDistance > hd[1]) {
                        java.util.Arrays.fill(tied, 0);
                    } else if (outDistance < hd[1]) {
                        throw new IllegalStateException(
                                "The substituted element is smaller than the head element");
                    }
                } else if (s == hd[1]) {
                    tied[c]++;
                }
            }

            // IBk.makeDistribution: 1/n per class, plus 1 per neighbour, normalised
            java.util.Arrays.fill(votes, 0);
            for (int h = 1; h <= size; h++) {
                votes[hc[h]]++;
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

    /** MyHeap.put + upheap (1-based): returns the new size. */
    private static int put(double[] dist, int[] cls, int size, double s, int c) {
        size++;
        dist[size] = s;
        cls[size] = c;
        int i = size;
        while (i > 1 && dist[i] > dist[i / 2]) {
            double td = dist[i]; int tc = cls[i];
            dist[i] = dist[i / 2]; cls[i] = cls[i / 2];
            i = i / 2;
            dist[i] = td; cls[i] = tc;
        }
        return size;
    }

    /** MyHeap.downheap (1-based), its comparisons as compiled (dcmpg/dcmpl). */
    private static void downheap(double[] dist, int[] cls, int size) {
        int i = 1;
        while ((2 * i <= size && dist[i] < dist[2 * i])
                || (2 * i + 1 <= size && dist[i] < dist[2 * i + 1])) {
            int child;
            if (2 * i + 1 > size) {
                child = 2 * i;
            } else if (dist[2 * i] > dist[2 * i + 1]) {
                child = 2 * i;
            } else {
                child = 2 * i + 1;
            }
            double td = dist[i]; int tc = cls[i];
            dist[i] = dist[child]; cls[i] = cls[child];
            i = child;
            dist[i] = td; cls[i] = tc;
        }
    }
}
