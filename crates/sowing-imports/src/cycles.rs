//! Import cycles: the strongly connected components of the file graph (Tarjan's
//! algorithm), each a group of files that import each other round a circle.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::graph::Edge;

/// Each group of two or more files that reach each other through `edges`, with the edges
/// among them; sorted by file.
pub fn cycles(edges: &[Edge]) -> Vec<Vec<Edge>> {
    let mut index: BTreeMap<&PathBuf, usize> = BTreeMap::new();
    for edge in edges {
        for file in [&edge.from, &edge.to] {
            let next = index.len();
            index.entry(file).or_insert(next);
        }
    }
    let mut successors: Vec<Vec<usize>> = vec![Vec::new(); index.len()];
    for edge in edges {
        successors[index[&edge.from]].push(index[&edge.to]);
    }
    let component = components(&successors);
    let mut groups: BTreeMap<usize, Vec<Edge>> = BTreeMap::new();
    for edge in edges {
        let (a, b) = (component[index[&edge.from]], component[index[&edge.to]]);
        if a == b {
            groups.entry(a).or_default().push(edge.clone());
        }
    }
    let mut groups: Vec<Vec<Edge>> = groups.into_values().collect();
    groups.sort_by(|a, b| a[0].from.cmp(&b[0].from));
    groups
}

/// The strongly connected component of each node (Tarjan's algorithm, iterative).
fn components(successors: &[Vec<usize>]) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let n = successors.len();
    let (mut order, mut low, mut component) = (vec![UNSEEN; n], vec![0; n], vec![UNSEEN; n]);
    let (mut stack, mut on_stack) = (Vec::new(), vec![false; n]);
    let (mut counter, mut components) = (0, 0);
    for start in 0..n {
        if order[start] != UNSEEN {
            continue;
        }
        // (node, how many of its successors were taken)
        let mut calls = vec![(start, 0)];
        order[start] = counter;
        low[start] = counter;
        counter += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(top) = calls.len().checked_sub(1) {
            let (node, taken) = calls[top];
            if let Some(&succ) = successors[node].get(taken) {
                calls[top].1 += 1;
                if order[succ] == UNSEEN {
                    order[succ] = counter;
                    low[succ] = counter;
                    counter += 1;
                    stack.push(succ);
                    on_stack[succ] = true;
                    calls.push((succ, 0));
                } else if on_stack[succ] {
                    low[node] = low[node].min(order[succ]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == order[node] {
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component[member] = components;
                    if member == node {
                        break;
                    }
                }
                components += 1;
            }
        }
    }
    component
}
