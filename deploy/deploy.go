// Package deploy holds the templates that run arimaalab on batch schedulers
// (selfplay.slurm, a Slurm job array, and selfplay-job.yaml, a Kubernetes
// Indexed Job) and the tests that check them: the Slurm template and the
// whole generation loop are run on a real single-node Slurm cluster (package
// internal/slurmtest), and the Job is decoded strictly as a batch/v1 Job.
// It has no Go API.
package deploy
