package deploy

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// TestSelfPlayJob decodes selfplay-job.yaml strictly (an unknown or
// misplaced field is an error) as a Kubernetes batch/v1 Job, then checks
// the rules that the API server and the selfplay command would enforce: an
// Indexed Job with a completion per shard, a restart policy a Job accepts,
// a selfplay command line of known flags whose paths lie on the mounted
// volumes, and CPU requests that match its workers.
func TestSelfPlayJob(t *testing.T) {
	b, err := os.ReadFile("selfplay-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var job batchv1.Job
	if err := yaml.UnmarshalStrict(b, &job); err != nil {
		t.Fatalf("selfplay-job.yaml is not a batch/v1 Job: %v", err)
	}
	flags := selfplayFlags(t)
	for _, p := range jobProblems(&job, flags) {
		t.Error(p)
	}

	// The checks catch what they are for.
	bad := map[string]string{
		"completions: 64":            "completions: 63",
		"restartPolicy: OnFailure":   "restartPolicy: Always",
		"- -shards=64":               "- -shard-count=64",
		"mountPath: /runs":           "mountPath: /data",
		`cpu: "2"`:                   `cpu: "4"`,
		"completionMode: Indexed":    "completionMode: NonIndexed",
		"gen=0001/weights.json":      "gen=0000/weights.json",
		"claimName: arimaalab-runs ": "claimNam: arimaalab-runs ",
	}
	for from, to := range bad {
		if !strings.Contains(string(b), from) {
			t.Fatalf("selfplay-job.yaml has no %q", from)
		}
		var j batchv1.Job
		err := yaml.UnmarshalStrict([]byte(strings.Replace(string(b), from, to, 1)), &j)
		switch problems := jobProblems(&j, flags); {
		case err != nil:
			t.Logf("%q -> %q: refused: %v", from, to, err)
		case len(problems) > 0:
			t.Logf("%q -> %q: refused: %s", from, to, problems[0])
		default:
			t.Errorf("%q -> %q: accepted", from, to)
		}
	}
}

// jobProblems lists what is wrong with the self-play Job.
func jobProblems(job *batchv1.Job, flags map[string]bool) []string {
	var problems []string
	bad := func(format string, args ...any) {
		problems = append(problems, "selfplay-job.yaml: "+fmt.Sprintf(format, args...))
	}
	if job.APIVersion != "batch/v1" || job.Kind != "Job" {
		bad("apiVersion %q, kind %q: want batch/v1 Job", job.APIVersion, job.Kind)
	}
	s := job.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		bad("spec.completionMode: want Indexed (JOB_COMPLETION_INDEX picks the shard)")
	}
	if s.Completions == nil || *s.Completions < 1 {
		bad("spec.completions: want the number of shards")
	}
	if s.Parallelism != nil && s.Completions != nil && (*s.Parallelism < 1 || *s.Parallelism > *s.Completions) {
		bad("spec.parallelism %d: want 1 to completions", *s.Parallelism)
	}
	pod := s.Template.Spec
	if rp := pod.RestartPolicy; rp != corev1.RestartPolicyOnFailure && rp != corev1.RestartPolicyNever {
		bad("restartPolicy %q: a Job takes OnFailure or Never", rp)
	}
	if len(pod.Containers) != 1 {
		bad("%d containers: want one", len(pod.Containers))
		return problems
	}
	ct := pod.Containers[0]
	if ct.Image == "" || len(ct.Command) == 0 || filepath.Base(ct.Command[0]) != "selfplay" {
		bad("the container must run a selfplay binary of an image")
		return problems
	}
	args := map[string]string{}
	for _, a := range ct.Command[1:] {
		name, value, ok := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || !ok {
			bad("argument %q: want -flag=value", a)
			continue
		}
		if !flags[name] {
			bad("argument %q: selfplay has no flag -%s", a, name)
		}
		args[name] = value
	}
	if args["shard"] != "" {
		bad("-shard is set: the completion index must pick the shard")
	}
	if n, err := strconv.Atoi(args["shards"]); err != nil || s.Completions == nil || int32(n) != *s.Completions {
		bad("-shards %q: want spec.completions", args["shards"])
	}
	// -out and -weights: the same generation of one run, on a mounted volume.
	out, w := args["out"], args["weights"]
	if filepath.Base(out) != "selfplay" || filepath.Dir(out) != filepath.Dir(w) || filepath.Base(w) != "weights.json" {
		bad("-out %q and -weights %q: want GEN/selfplay played by GEN/weights.json", out, w)
	}
	volumes := map[string]bool{}
	for _, v := range pod.Volumes {
		volumes[v.Name] = true
	}
	for _, p := range []string{out, w, args["config"]} {
		if p == "" {
			continue
		}
		mounted := false
		for _, m := range ct.VolumeMounts {
			if !volumes[m.Name] {
				bad("volumeMount %q: no such volume", m.Name)
			}
			if strings.HasPrefix(p, m.MountPath+"/") {
				mounted = true
			}
		}
		if !mounted {
			bad("%s is on no mounted volume", p)
		}
	}
	cpu := ct.Resources.Requests.Cpu()
	if workers, err := strconv.Atoi(args["workers"]); err != nil || cpu.IsZero() || cpu.Value() != int64(workers) {
		bad("-workers %q and the CPU request %v: want one game per CPU requested", args["workers"], cpu)
	}
	return problems
}

// selfplayFlags returns the flags of cmd/selfplay, from its usage.
func selfplayFlags(t *testing.T) map[string]bool {
	t.Helper()
	out, _ := exec.Command("go", "run", "../cmd/selfplay", "-h").CombinedOutput()
	flags := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.HasPrefix(line, "  -") {
			flags[strings.TrimPrefix(f[0], "-")] = true
		}
	}
	if !flags["shards"] || !flags["out"] {
		t.Fatalf("no flags read from selfplay -h:\n%s", out)
	}
	return flags
}
