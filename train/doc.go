// Package train fits the weights of the linear evaluation (package weights) to
// self-play data (package data) by regularized logistic regression: the Texel
// method.
//
// A row with features f gets the predicted probability that the side to move
// wins p = sigmoid(s * w·f), which is (1 + Evaluate)/2 of weights.Linear, with s
// the scale of the weights file and w its values. Its target y in [0, 1] is
// made from the game's result, the search's value, or a blend (see Target).
// The fit minimizes the weighted mean cross-entropy of p against y plus
// L2/2 * |w - c|^2 over every weight but the bias (c is zero, or the initial
// weights), with L-BFGS (gonum.org/v1/gonum/optimize).
//
// The scale s is held fixed at that of the initial weights, so the weights keep
// their units (rabbits for generation 0): s and w are not separately
// identifiable, only their product is, and fitting w alone reaches every
// product. With Options.FitScale the result is expressed at another scale,
// chosen so that an anchor feature (harlog) keeps its initial weight.
//
// Rows are split into training and validation sets by game (InValidation), so
// that no game is on both sides. The loss and its gradient are computed in
// parallel over fixed blocks of rows whose partial sums are added in block
// order: the fitted weights are the same bits whatever the number of threads.
// The rows are held in memory as one contiguous slice of features (Load), or
// streamed from the memory-mapped shard files at every pass (Options.Stream)
// for datasets larger than memory.
//
// Run does all of it and returns the next generation of weights with its
// lineage and a Report; Fit and Evaluate work on a Dataset built in memory
// (NewDataset). docs/train.md describes the model, the options and the report.
package train
