//! The host/WGSL contract: every kernel's Rust params struct has the size and the field
//! names and offsets that naga reads from the `Params` struct of its shader(s), so a
//! field added on one side only fails here rather than as wrong numbers on a GPU.

use difflens::gpu::params::*;

fn check<P: Uniform>() {
    let ours = P::fields();
    for source in P::WGSL {
        let module = naga::front::wgsl::parse_str(&difflens::gpu::sizes::wgsl(source)).unwrap_or_else(|e| panic!("{} does not parse: {e}", std::any::type_name::<P>()));
        let (_, ty) = module.types.iter().find(|(_, t)| t.name.as_deref() == Some("Params")).expect("the shader declares `struct Params`");
        let naga::TypeInner::Struct { members, span } = &ty.inner else { panic!("Params is a struct") };
        let theirs: Vec<(String, usize)> = members.iter().map(|m| (m.name.clone().unwrap_or_default(), m.offset as usize)).collect();
        let ours: Vec<(String, usize)> = ours.iter().map(|(n, o)| (n.to_string(), *o)).collect();
        assert_eq!(ours, theirs, "{}: fields and offsets", std::any::type_name::<P>());
        assert_eq!(std::mem::size_of::<P>(), *span as usize, "{}: size", std::any::type_name::<P>());
        let mut bound: Vec<(u32, String)> = module.global_variables.iter().filter_map(|(_, g)| g.binding.as_ref().map(|b| (b.binding, g.name.clone().unwrap_or_default()))).collect();
        bound.sort();
        let names: Vec<&str> = bound.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(names, [&["p"], P::BINDINGS].concat(), "{}: bindings", std::any::type_name::<P>());
    }
}

#[test]
fn every_params_struct_matches_its_shader() {
    check::<SoftmaxUniform>();
    check::<CombineParams>();
    check::<ElementwiseParams>();
    check::<LabLambdaParams>();
    check::<MatmulParams>();
    check::<RmsNormParams>();
    check::<RopeParams>();
}
