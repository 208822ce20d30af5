//! The classic reference for the text models: a character n-gram with interpolated
//! modified Kneser–Ney smoothing (Chen & Goodman 1998, §4.1.6; the form KenLM fits).
//!
//! P(w | h) at the highest order N uses raw counts c(hw); every lower order uses
//! continuation counts N1+(•hw), the number of distinct characters seen before hw:
//!
//!   P_n(w | h) = (max(c(hw) − D_n(c(hw)), 0) + γ_n(h) · P_{n−1}(w | h')) / c(h•)
//!   γ_n(h)     = D_n,1 · N1(h•) + D_n,2 · N2(h•) + D_n,3+ · N3+(h•)
//!
//! where h' is h without its first character, N_k(h•) counts the characters w with
//! c(hw) = k (≥ 3 for the last), and the three discounts per order come from that
//! order's counts of counts n1…n4: Y = n1 / (n1 + 2 n2), D1 = 1 − 2Y·n2/n1,
//! D2 = 2 − 3Y·n3/n2, D3+ = 3 − 4Y·n4/n3. Below the unigrams lies the uniform
//! distribution over the vocabulary, so every character has a probability. A history
//! never seen at order n (c(h•) = 0) passes straight to order n − 1; so do the first
//! characters of a text, which have fewer than N − 1 characters before them (they use
//! the lower orders' continuation counts, as the other predictions' lower orders do).
//!
//! Counts live in sorted arrays, one per order, of n-grams packed 7 bits a character
//! (the vocabulary has fewer than 128 tokens) into a u128, the history in the high bits,
//! so that one history's n-grams are contiguous and every lookup is a binary search.

/// Bits per packed character: the vocabulary must have at most 2^BITS tokens.
const BITS: u32 = 7;
/// The highest order a u128 holds.
pub const MAX_ORDER: usize = (128 / BITS) as usize;

/// One order's counts: each distinct n-gram with its count (raw at the top order,
/// continuation below), and each distinct history with its total and N1, N2, N3+.
#[derive(Debug, Default)]
struct Order {
    grams: Vec<(u128, u32)>,
    histories: Vec<(u128, History)>,
    discounts: [f64; 3],
}

#[derive(Clone, Copy, Debug, Default)]
struct History {
    total: u64,
    n: [u32; 3],
}

#[derive(Debug)]
pub struct KneserNey {
    /// orders[n − 1] holds the n-grams.
    orders: Vec<Order>,
    vocab: usize,
}

fn pack(tokens: &[u32]) -> u128 {
    tokens.iter().fold(0u128, |k, &t| (k << BITS) | t as u128)
}

/// Sorted distinct keys with how often each occurs.
fn counted(mut keys: Vec<u128>) -> Vec<(u128, u32)> {
    keys.sort_unstable();
    let mut out: Vec<(u128, u32)> = Vec::with_capacity(keys.len() / 2);
    for k in keys {
        match out.last_mut() {
            Some((last, c)) if *last == k => *c += 1,
            _ => out.push((k, 1)),
        }
    }
    out
}

/// Modified Kneser–Ney's three discounts from counts of counts n1…n4, each kept within
/// [0, k] (a tiny corpus can lack some of the counts; a missing ratio counts as zero).
pub fn discounts(n: [u64; 4]) -> [f64; 3] {
    let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let y = ratio(n[0], n[0] + 2 * n[1]);
    let d = [1.0 - 2.0 * y * ratio(n[1], n[0]), 2.0 - 3.0 * y * ratio(n[2], n[1]), 3.0 - 4.0 * y * ratio(n[3], n[2])];
    [d[0].clamp(0.0, 1.0), d[1].clamp(0.0, 2.0), d[2].clamp(0.0, 3.0)]
}

impl Order {
    fn of(grams: Vec<(u128, u32)>) -> Self {
        let mut n = [0u64; 4];
        for &(_, c) in &grams {
            if (1..=4).contains(&c) {
                n[c as usize - 1] += 1;
            }
        }
        let mut histories: Vec<(u128, History)> = Vec::new();
        for &(k, c) in &grams {
            let h = k >> BITS;
            if histories.last().is_none_or(|(last, _)| *last != h) {
                histories.push((h, History::default()));
            }
            let stats = &mut histories.last_mut().expect("pushed").1;
            stats.total += c as u64;
            stats.n[(c.min(3) - 1) as usize] += 1;
        }
        Self { grams, histories, discounts: discounts(n) }
    }

    fn count(&self, key: u128) -> u32 {
        self.grams.binary_search_by_key(&key, |(k, _)| *k).map_or(0, |i| self.grams[i].1)
    }

    fn history(&self, h: u128) -> Option<History> {
        self.histories.binary_search_by_key(&h, |(k, _)| *k).ok().map(|i| self.histories[i].1)
    }

    fn discount(&self, c: u32) -> f64 {
        if c == 0 {
            0.0
        } else {
            self.discounts[(c.min(3) - 1) as usize]
        }
    }
}

impl KneserNey {
    /// Fits an order-`order` model on `tokens`, each below `vocab`.
    pub fn fit(tokens: &[u32], order: usize, vocab: usize) -> Self {
        assert!((1..=MAX_ORDER).contains(&order), "order {order} outside 1..={MAX_ORDER}");
        assert!(vocab <= 1 << BITS && tokens.iter().all(|&t| (t as usize) < vocab), "tokens below {vocab} ≤ {}", 1 << BITS);
        let raw = |n: usize| counted(tokens.windows(n).map(pack).collect());
        let mut orders = Vec::with_capacity(order);
        // The top order's raw counts; each order below, the continuation counts read
        // off the distinct n-grams one order up (their suffixes, one per left character).
        let mut above = raw(order);
        for n in (1..order).rev() {
            let mask = (1u128 << (BITS as usize * n)) - 1;
            let continuation = counted(above.iter().map(|(k, _)| k & mask).collect());
            orders.push(Order::of(std::mem::replace(&mut above, continuation)));
        }
        orders.push(Order::of(above));
        orders.reverse();
        Self { orders, vocab }
    }

    pub fn order(&self) -> usize {
        self.orders.len()
    }

    /// Each order's three discounts, lowest order first.
    pub fn discount_table(&self) -> Vec<[f64; 3]> {
        self.orders.iter().map(|o| o.discounts).collect()
    }

    /// P(w | context), the context's last (order − 1) tokens used.
    pub fn probability(&self, context: &[u32], w: u32) -> f64 {
        let keep = context.len().min(self.orders.len() - 1);
        let history = &context[context.len() - keep..];
        let mut p = 1.0 / self.vocab as f64;
        // From the unigrams up to the longest history: each order interpolates with the one below.
        for n in 1..=keep + 1 {
            let order = &self.orders[n - 1];
            let h = pack(&history[keep + 1 - n..]);
            let Some(stats) = order.history(h) else { continue };
            let c = order.count((h << BITS) | w as u128);
            let gamma: f64 = (0..3).map(|i| order.discounts[i] * stats.n[i] as f64).sum();
            p = ((c as f64 - order.discount(c)).max(0.0) + gamma * p) / stats.total as f64;
        }
        p
    }

    /// −ln P of each token of `tokens` after the first, from the tokens before it.
    pub fn losses(&self, tokens: &[u32]) -> Vec<f64> {
        (1..tokens.len()).map(|i| -self.probability(&tokens[..i], tokens[i]).ln()).collect()
    }
}

/// The order (from `orders`) with the least mean loss on `aside` when fitted on `fit`,
/// and each order's loss.
pub fn choose_order(fit: &[u32], aside: &[&[u32]], orders: std::ops::RangeInclusive<usize>, vocab: usize) -> (usize, Vec<(usize, f64)>) {
    let scored: Vec<(usize, f64)> = orders
        .map(|n| {
            let model = KneserNey::fit(fit, n, vocab);
            let (sum, count) = aside.iter().fold((0.0, 0usize), |(s, c), text| {
                let l = model.losses(text);
                (s + l.iter().sum::<f64>(), c + l.len())
            });
            (n, sum / count.max(1) as f64)
        })
        .collect();
    let best = scored.iter().min_by(|a, b| a.1.total_cmp(&b.1)).expect("at least one order").0;
    (best, scored)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "abracadabra" as tokens a=0, b=1, c=2, d=3, r=4.
    fn toy() -> Vec<u32> {
        "abracadabra".bytes().map(|b| "abcdr".find(b as char).unwrap() as u32).collect()
    }

    #[test]
    fn every_distribution_sums_to_one() {
        let text = toy();
        for order in 1..=4 {
            let model = KneserNey::fit(&text, order, 6);
            // Histories seen and unseen, short and long.
            for context in [&[][..], &[0], &[4, 0], &[1, 4, 0], &[3, 3, 3], &[5, 1]] {
                let sum: f64 = (0..6).map(|w| model.probability(context, w)).sum();
                assert!((sum - 1.0).abs() < 1e-12, "order {order}, context {context:?}: {sum}");
            }
        }
    }

    /// The counts of "abracadabra" by hand, and P(a | r) at order 2 from them.
    #[test]
    fn a_probability_by_hand() {
        let model = KneserNey::fit(&toy(), 2, 6);
        // Bigrams: ab ×2, br ×2, ra ×2, ac, ca, ad, da: counts of counts n1 = 4, n2 = 3.
        // Y = 4 / (4 + 6) = 0.4; D1 = 1 − 2·0.4·3/4 = 0.4; D2 = 2 − 3·0.4·0/3 = 2 → clamped
        // to 2; D3+ = 3 (no n3, n4).
        let d = model.discount_table()[1];
        assert!((d[0] - 0.4).abs() < 1e-12 && (d[1] - 2.0).abs() < 1e-12, "{d:?}");
        // Unigram continuation counts: a follows r, c, d (3); b follows a (1); r follows
        // b (1); c follows a (1); d follows a (1). Total 7; n1 = 4, n3 = 1: Y = 1,
        // D1 = 1, D2 = 2 (n2 = 0, clamped), D3+ = 3 − 0 = 3.
        let u = model.discount_table()[0];
        assert_eq!(u, [1.0, 2.0, 3.0]);
        // P1(a) = (max(3 − 3, 0) + γ/V) / 7 with γ = 1·4 + 3·1 = 7: (0 + 7/6) / 7 = 1/6.
        let p1_a = 1.0 / 6.0;
        assert!((model.probability(&[], 0) - p1_a).abs() < 1e-12);
        // Order 2, history r: only "ra" ×2, so c(r•) = 2, N2(r•) = 1, γ = D2 = 2.
        // P(a | r) = (max(2 − 2, 0) + 2 · P1(a)) / 2 = P1(a).
        assert!((model.probability(&[4], 0) - p1_a).abs() < 1e-12);
        // History a: ab ×2, ac, ad: c(a•) = 4, N1 = 2, N2 = 1, γ = 0.4·2 + 2·1 = 2.8.
        // P1(b) = (max(1 − 1, 0) + 7/6) / 7 = 1/6. P(b | a) = (max(2 − 2, 0) + 2.8/6) / 4.
        assert!((model.probability(&[0], 1) - 2.8 / 6.0 / 4.0).abs() < 1e-12);
        // P(c | a) = ((1 − 0.4) + 2.8/6) / 4.
        assert!((model.probability(&[0], 2) - (0.6 + 2.8 / 6.0) / 4.0).abs() < 1e-12);
    }

    #[test]
    fn a_longer_order_fits_repetitive_text_better_and_is_chosen() {
        let text: Vec<u32> = (0..3000).map(|i| [0, 1, 2, 0, 1, 3, 0, 1, 2, 4][i % 10]).collect();
        let aside: Vec<u32> = (0..500).map(|i| [0, 1, 2, 0, 1, 3, 0, 1, 2, 4][i % 10]).collect();
        let (best, scored) = choose_order(&text, &[&aside], 1..=5, 5);
        assert!(best >= 4, "{scored:?}");
        assert!(scored[0].1 > scored[best - 1].1 + 0.5, "{scored:?}");
    }

    #[test]
    fn discounts_follow_chen_and_goodman() {
        let d = discounts([1000, 400, 200, 120]);
        let y = 1000.0 / 1800.0;
        assert!((d[0] - (1.0 - 2.0 * y * 0.4)).abs() < 1e-12);
        assert!((d[1] - (2.0 - 3.0 * y * 0.5)).abs() < 1e-12);
        assert!((d[2] - (3.0 - 4.0 * y * 0.6)).abs() < 1e-12);
    }
}
